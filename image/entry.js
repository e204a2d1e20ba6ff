// Entry of the fake's container image: listens where the kit says (PORT, HOST) with fixed test tokens.
import { main } from '../dist/cli/main.js';
// main loads the fake command on demand; imported here as well, so that the image's staging
// (scripts/build-fake-image.js follows static imports) copies the packages it needs.
import '../dist/cli/fake-command.js';

const env = process.env;
process.exitCode = await main([
  'fake',
  '--host',
  env.HOST ?? '0.0.0.0',
  '--port',
  env.PORT ?? '8080',
  '--token',
  env.NOTES_FAKE_TOKEN ?? 'image-token-primary',
  '--token',
  env.NOTES_FAKE_SECONDARY_TOKEN ?? 'image-token-secondary',
  '--admin-token',
  env.NOTES_FAKE_ADMIN_TOKEN ?? 'image-admin-token',
]);
