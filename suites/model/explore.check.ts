import { exploreCheck } from './exploration.js';

exploreCheck(
  'first',
  'the explorer visits the states, inputs, views and paging boundaries the other checks did not (behaviour coverage)',
);
