/** The file name a download's Content-Disposition gives it, or `fallback`. */
const fileNameOf = (response: Response, fallback: string) =>
  /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallback;

/**
 * Saves a fetched answer as the browser's download, under the name the server gave it. Fetched rather than linked,
 * so that a refusal can be told in words on the page instead of opening as a raw page.
 */
export async function saveDownload(response: Response, fallbackName: string): Promise<void> {
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileNameOf(response, fallbackName);
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
