// Compiled by src/package.e2e.test.ts against the packed package, under tsc --strict: every line must compile.
import { createMock, petstore, runContract, StateBudget, type Collection, type ContractReport, type Finding, type MockInstance, type MockOptions, type Plugin, type StateSnapshot, type StateStore } from 'petstore-mock-kit';
import { mswHandlers } from 'petstore-mock-kit/msw';
import { createMock as createBrowserMock, type BrowserMockOptions } from 'petstore-mock-kit/browser';
import { setupServer } from 'msw/node';

// The options createMock takes are the type it exports.
const options: MockOptions = { seed: 7, counts: { pets: 5 } };
const mock: MockInstance = await createMock(options);
const saved: StateSnapshot = mock.snapshot();
const server = setupServer(...mswHandlers(mock, { baseUrl: 'https://api.example.com' }));
const listening = await mock.listen(0);
const report: ContractReport = await runContract({ baseUrl: listening.url, token: 'petstore-demo-key', readOnly: true });
const failed: number = report.failures.length;
mock.restore(saved);
const withoutDocs = await createMock({ docs: false, fixtures: './fixtures', plugins: [] });

// One plugin, given to the mock and to the suite alike.
const audit: Plugin = { name: 'audit', description: 'pets carry who made them', mock: (parts, document) => document.operationIds.has('createPet') && (parts.rules.register('createPet', { before: (ctx) => void ((ctx.input.body as { tag?: string }).tag ??= 'audit') }), true) };
const audited = await createMock({ plugins: [petstore, audit] });
const auditedReport: ContractReport = await runContract({ baseUrl: listening.url, plugins: ['petstore', audit], readOnly: true });

// Every type of a signature can be named: the store option's budget.
const store: MockOptions['store'] = (collections: readonly Collection[], budget: StateBudget): StateStore => {
  throw new Error(`${collections.length} collections, ${budget.full() ?? `${budget.records} of ${budget.maxRecords} records`}`);
};
const roomForFive: boolean = new StateBudget({ maxRecords: 10 }).fits(5);

// The document is typed: OpenAPI objects, not `any`.
const title: string = mock.document.api.info.title;
const createPet = mock.document.api.paths?.['/pets']?.post;
const deprecated: boolean | undefined = createPet?.deprecated;

// The Petstore plugin's checks are among the ids a finding names.
const stateful: Finding[] = report.failures.filter((finding) => finding.check === 'state_transitions' || finding.check === 'referential_integrity');

// The browser's own options.
const browserOptions: BrowserMockOptions = { spec: { openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {} }, seed: 7 };
const inBrowser = await createBrowserMock(browserOptions);
const status: number = (await inBrowser.fetch('/anything')).status;
export { server, failed, withoutDocs, audited, auditedReport, store, roomForFive, title, deprecated, stateful, status };
