import { exploreCheck } from './exploration.js';

// The explorer's second share: the worker that is free second explores beside the first (exploration.ts).
exploreCheck(
  'beside',
  'the explorer, in the worker free second: visits what the first explorer has not taken yet (behaviour coverage)',
);
