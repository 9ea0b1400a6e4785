/** Slice 2 of the contract suite's operations (suite-options.ts, vitest.config.ts). */
import { describeContract } from '../src/library/vitest.js';
import { suiteOptions } from './suite-options.js';

describeContract(suiteOptions(2));
