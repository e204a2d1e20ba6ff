import { KitError } from './errors.js';

export interface StartedContainer {
  url: string;
  stop(): Promise<void>;
}

/** Starts the image with testcontainers on the host network and waits for its port (env NOTES_IMAGE_PORT, default 8080). */
export async function startImage(image: string): Promise<StartedContainer> {
  throw new KitError(`--image is not implemented yet (${image})`);
}
