import type { QueryClient } from '@tanstack/react-query';
import { AppProvider } from './provider';
import { AppRouter } from './router';

export function App({ client }: { client?: QueryClient }) {
  return (
    <AppProvider client={client}>
      <AppRouter />
    </AppProvider>
  );
}
