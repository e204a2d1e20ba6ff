/** A seed, generate or state file the fake cannot use; the message is one line naming the file and the entry. */
export class DataFileError extends Error {
  override name = 'DataFileError';
}

/** The one-line form of any error raised while reading `source`. */
export function dataFileError(source: string, where: string, error: unknown): DataFileError {
  if (error instanceof DataFileError) return error;
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
  return new DataFileError(`${source}: ${where ? `${where}: ` : ''}${message}`);
}
