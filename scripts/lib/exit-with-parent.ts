// Preloaded (`node --import`) into each role that `npm start` supervises: when the supervisor goes away (its IPC
// channel closes), the role gets the SIGTERM it would get from an orderly stop, so it never outlives the stack.
if (process.send) {
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  // The channel must not keep a role alive that has finished its own shutdown.
  process.channel?.unref();
}
