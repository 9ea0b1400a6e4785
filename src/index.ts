/**
 * `petstore-mock-kit` on Node: the stateful OpenAPI mock as a library (`createMock`), the contract
 * suite (`runContract`), and the types of both. MSW handlers are in `petstore-mock-kit/msw`; the
 * browser gets its own build of `createMock` (this entry's `browser` condition).
 */
export { createMock, BUNDLED_SPEC, BUNDLED_FIXTURES, type MockInstance, type ListenOptions, type ListeningMock } from './library/create-mock.js';
export type { MockOptions, BrowserMockOptions } from './mock/mock-options.js';
export { createProxy, type CreateProxyOptions, type ProxyInstance, type ProxyExchange, type Violation, type ViolationCounts, type RecordingSummary, type UpstreamFetch } from './library/create-proxy.js';
export { runContract, type RunContractOptions } from './library/run-contract.js';
export { ContractSetupError } from './contract/run-contract.js';
export type { ContractReport, CoverageRow } from './contract/contract-report.js';
export type { Finding, FindingKind, Exchange, Case } from './contract/case.js';
export type { CheckOutcome, Verdict } from './contract/results.js';
// The Petstore plugin ships with this package: exporting its purposes brings its checks' ids
// (its `declare module` of CheckIds and Purposes) into the published types, so a finding's `check`
// may be 'state_transitions'.
export type { PetstorePurposes, ProseRule } from './plugins/petstore/contract.js';
export * from './library/in-process-exports.js';
export { FixtureError } from './state/load-fixtures.js';
export { StoreStartError } from './state/postgres-errors.js';
