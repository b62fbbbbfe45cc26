/** Saves `content` as a file through a Blob and a temporary <a download>. */
export function downloadFile(filename: string, mimeType: string, content: string): void {
  const url = URL.createObjectURL(new Blob([content], { type: mimeType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The browser has started the download by now; the next task may let go of the data.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
