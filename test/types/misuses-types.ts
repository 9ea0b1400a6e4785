// Compiled by src/package.e2e.test.ts against the packed package, under tsc --strict: each line
// ending in `// error TSnnnn` must be refused with that error, and nothing else may be.
import { createMock, type Finding, type MockOptions } from 'petstore-mock-kit';
import { createMock as createBrowserMock } from 'petstore-mock-kit/browser';

const mock = await createMock({ seed: 'seven' }); // error TS2322
mock.reset(1); // error TS2554
await createMock({ docs: 'yes' }); // error TS2322
await createMock({ allowedHosts: ['demo.example.com'] }); // error TS2353
const options: MockOptions = { plugins: ['petstore'] }; // error TS2322
await createBrowserMock({ fixtures: './fixtures' }); // error TS2322
await createBrowserMock({ docs: false }); // error TS2353
const version: number = mock.document.api.info.title; // error TS2322
const isUnknownCheck = (finding: Finding) => finding.check === 'no_such_check'; // error TS2367
export { options, version, isUnknownCheck };
