/**
 * The Swagger UI plugin that makes the reference a mock's: what Swagger UI does not read from the
 * document, added through its plugin points (not a fork of it).
 *
 * - `x-stability`: a badge beside the operation's path (wraps OperationSummaryPath); none on a
 *   deprecated operation, whose deprecation badge says where it stands.
 * - `deprecated`, `x-deprecated-at`, `x-sunset`: a badge, and a notice with the dates and the
 *   headers the mock sends (wraps `parameters`, the first part of an operation's body).
 * - `x-codeSamples` (or `x-code-samples`): one tab per sample, pointing at the mock (same place).
 * - `x-hideTryItPanel`: no "Try it out" (wraps the `allowTryItOutFor` selector, Swagger UI's hook for it).
 * - A long description of the document: its first block, and a button for the rest (wraps `info`,
 *   src/mock/docs/ui/collapsible-description.ts), so the operations are on the first screen.
 * - An error response without an example: the one Swagger UI generates, with the response's status
 *   in its `status` and `code` (wraps `response`, src/mock/docs/ui/error-examples.ts).
 * - An array parameter whose items have a format (`id` of `GET /pets`: int64) gets the text input per
 *   item Swagger UI falls back to, without the console warning its lookup logs (wraps `JsonSchema_array`).
 * - `Prefer`: a choice of the declared statuses and named examples beside Execute (wraps `execute`),
 *   sent as a `Prefer` header (wraps the `executeRequest` action, adding the header to that
 *   request's copy of the document; the reference itself is left as written).
 */
import type { DocumentObject, OperationObject, ResponseObject } from '../../../openapi/document/objects.js';
import { HTTP_METHODS, type HttpMethod } from '../../../openapi/operations/operation.js';
import { followRef } from '../follow-ref.js';
import { codeSamplesOf, hidesTryIt, scenariosOf, type CodeSample, type DocsConfig, type Scenario } from '../docs-document.js';
import { operationKey } from '../operation-key.js';
import { collapsibleDescription } from './collapsible-description.js';
import { errorExamples } from './error-examples.js';
import type { Component, ExecuteRequest, GetComponent, ImmutableMap, ReactApi, ReactNode, SwaggerPlugin, System } from './swagger-ui.js';

/** The plugin for a document (as the page shows it) and the page's settings. */
export function mockDocsPlugin(doc: DocumentObject, config: DocsConfig): () => SwaggerPlugin {
  const operationAt = (path: string, method: string): OperationObject | undefined => {
    const name = String(method).toLowerCase();
    return HTTP_METHODS.includes(name as HttpMethod) ? doc.paths?.[path]?.[name as HttpMethod] : undefined;
  };
  const resolve = (value: ResponseObject) => followRef(doc, value);
  /** The scenarios of each operation, read from the document once (`execute` renders again on every change of the form). */
  const scenarios = new Map<string, Scenario[]>();
  const scenariosAt = (path: string, method: string, key: string): Scenario[] => {
    let found = scenarios.get(key);
    if (!found) scenarios.set(key, (found = scenariosOf(operationAt(path, method) ?? {}, resolve)));
    return found;
  };
  /** The scenario chosen per operation (`get /pets`); none means the mock answers as it would. */
  const chosen = new Map<string, string>();

  return () => ({
    wrapComponents: {
      // Read from the document, not from `op`: Swagger UI resolves an operation only once it is opened.
      OperationSummaryPath: (Original, system) => (props: { operationProps: ImmutableMap }) => {
        const { React } = system;
        const operation = operationAt(String(props.operationProps.get('path')), String(props.operationProps.get('method'))) ?? {};
        return React.createElement(React.Fragment, null, React.createElement(Original, props), summaryBadges(React, operation));
      },
      parameters: (Original, system) => {
        const { React } = system;
        const Samples = CodeSamples(system);
        return (props: { pathMethod: [string, string] }) => {
          const [path, method] = props.pathMethod;
          const operation = operationAt(path, method) ?? {};
          return React.createElement(
            React.Fragment,
            null,
            deprecationNotice(React, operation, config.deprecations[operationKey(method, path)]),
            hidesTryIt(doc, operation) ? React.createElement('p', { className: 'mock-no-try-it' }, 'Try it out is off for this operation: the document sets x-hideTryItPanel.') : null,
            React.createElement(Samples, { samples: codeSamplesOf(operation), id: operationKey(method, path) }),
            React.createElement(Original, props),
          );
        };
      },
      info: collapsibleDescription,
      response: errorExamples,
      JsonSchema_array: (Original, system) => (props: { getComponent: GetComponent }) => system.React.createElement(Original, { ...props, getComponent: silentFormatLookup(props.getComponent) }),
      execute: (Original, system) => {
        const { React } = system;
        const Picker = ScenarioPicker(React);
        return (props: { path: string; method: string }) => {
          const key = operationKey(props.method, props.path);
          const offered = scenariosAt(props.path, props.method, key);
          const onChange = (value: string) => (value ? chosen.set(key, value) : chosen.delete(key));
          return React.createElement(
            React.Fragment,
            null,
            offered.length ? React.createElement(Picker, { scenarios: offered, value: chosen.get(key) ?? '', onChange }) : null,
            React.createElement(Original, props),
          );
        };
      },
    },
    statePlugins: {
      spec: {
        wrapSelectors: {
          allowTryItOutFor: (original) => (_state, path: string, method: string) => !hidesTryIt(doc, operationAt(path, method) ?? {}) && original(path, method),
        },
        wrapActions: {
          executeRequest: (original) => (request: ExecuteRequest) => {
            const prefer = chosen.get(operationKey(request.method, request.pathName));
            return original(prefer ? withPrefer(request, prefer) : request);
          },
        },
      },
    },
  });
}

/**
 * The request with a `Prefer` header: declared for this request only, on its own copy of the
 * document (unless the operation declares one itself), and given the value chosen.
 */
function withPrefer(request: ExecuteRequest, prefer: string): ExecuteRequest {
  const operation = request.spec.paths?.[request.pathName]?.[request.method];
  if (!operation) return request;
  const parameters = (operation.parameters ?? []) as Array<{ name?: string; in?: string }>;
  const declared = parameters.find((p) => p.in === 'header' && p.name?.toLowerCase() === 'prefer');
  if (!declared) operation.parameters = [...parameters, { name: 'Prefer', in: 'header', schema: { type: 'string' } }];
  return { ...request, parameters: { ...request.parameters, [`header.${declared?.name ?? 'Prefer'}`]: prefer } };
}

/** Each lookup function wrapped once: a new one per render would render the (pure) array input again each time. */
const silentLookups = new WeakMap<GetComponent, GetComponent>();

/**
 * The lookup, silent for `JsonSchema_<type>_<format>` (`JsonSchema_integer_int64`): Swagger UI's
 * array input asks for one for items with a format and, finding none, uses its text input per item
 * (as it means to); its lookup logs "Could not find component" first. Other names as before.
 */
function silentFormatLookup(getComponent: GetComponent): GetComponent {
  let silent = silentLookups.get(getComponent);
  if (!silent) {
    silent = (name, container, config) => getComponent(name, container, /^JsonSchema_[^_]+_./.test(name) ? { ...config, failSilently: true } : config);
    silentLookups.set(getComponent, silent);
  }
  return silent;
}

/**
 * Badges beside the path: `x-stability` as written, or for a deprecated operation only its
 * deprecation (with the sunset date): `deprecated` says where it stands, whatever `x-stability`
 * said before (the Petstore's getPet keeps `stable`).
 */
function summaryBadges(React: ReactApi, operation: OperationObject): ReactNode[] {
  const badges: ReactNode[] = [];
  const stability = operation['x-stability'];
  if (typeof stability === 'string' && stability && operation.deprecated !== true) {
    badges.push(React.createElement('span', { key: 'stability', className: `mock-badge mock-stability mock-stability-${stability.toLowerCase().replace(/[^a-z0-9-]/g, '')}`, title: `x-stability: ${stability}` }, stability));
  }
  if (operation.deprecated === true) {
    const sunset = dateOf(operation['x-sunset']);
    badges.push(React.createElement('span', { key: 'deprecated', className: 'mock-badge mock-deprecated', title: 'deprecated: true' }, sunset ? `deprecated · sunset ${sunset}` : 'deprecated'));
  }
  return badges;
}

/** The notice at the top of a deprecated operation: since when, until when, and what the mock sends. */
function deprecationNotice(React: ReactApi, operation: OperationObject, headers: Record<string, string> | undefined): ReactNode {
  if (operation.deprecated !== true) return null;
  const since = dateOf(operation['x-deprecated-at']);
  const sunset = dateOf(operation['x-sunset']);
  const sentence = ['Deprecated', since ? ` since ${since}` : '', sunset ? `; sunset on ${sunset}.` : '.'].join('');
  return React.createElement(
    'div',
    { className: 'mock-deprecation', role: 'note' },
    React.createElement('p', null, React.createElement('strong', null, sentence)),
    headers
      ? React.createElement(
          'p',
          null,
          'The mock sends: ',
          ...Object.entries(headers).flatMap(([name, value], i) => [i ? ', ' : '', React.createElement('code', { key: name }, `${name}: ${value}`)]),
        )
      : null,
  );
}

/** The code samples in tabs, one per sample (its label, else its language). */
function CodeSamples(system: System): Component<{ samples: CodeSample[]; id: string }> {
  const { React } = system;
  return function MockCodeSamples({ samples, id }) {
    const [current, setCurrent] = React.useState(0);
    if (!samples.length) return null;
    const sample = samples[Math.min(current, samples.length - 1)];
    const HighlightCode = system.getComponent('HighlightCode', true);
    return React.createElement(
      'div',
      { className: 'opblock-section mock-code-samples' },
      React.createElement('div', { className: 'opblock-section-header' }, React.createElement('h4', { className: 'opblock-title' }, 'Code samples')),
      React.createElement(
        'div',
        { className: 'mock-tabs', role: 'tablist' },
        ...samples.map((s, i) =>
          React.createElement('button', { key: i, type: 'button', role: 'tab', id: `${id}-sample-${i}`, 'aria-selected': i === current, 'data-lang': s.lang, className: i === current ? 'mock-tab active' : 'mock-tab', onClick: () => setCurrent(i) }, s.label ?? s.lang),
        ),
      ),
      React.createElement(
        'div',
        { role: 'tabpanel', className: 'mock-sample', 'data-lang': sample.lang, 'aria-labelledby': `${id}-sample-${Math.min(current, samples.length - 1)}` },
        React.createElement(HighlightCode, { language: highlightLanguage(sample.lang), canCopy: true, getComponent: system.getComponent }, sample.source),
      ),
    );
  };
}

/** The choice of scenario beside Execute. */
function ScenarioPicker(React: ReactApi): Component<{ scenarios: Scenario[]; value: string; onChange: (value: string) => void }> {
  return function MockScenarioPicker({ scenarios, value, onChange }) {
    const [selected, setSelected] = React.useState(value);
    return React.createElement(
      'label',
      { className: 'mock-scenario' },
      React.createElement('span', null, 'Mock response (Prefer)'),
      React.createElement(
        'select',
        {
          value: selected,
          onChange: (event: { target: { value: string } }) => {
            setSelected(event.target.value);
            onChange(event.target.value);
          },
        },
        React.createElement('option', { value: '' }, 'As the mock answers (no Prefer)'),
        ...scenarios.map((s) => React.createElement('option', { key: s.prefer, value: s.prefer }, `${s.label} (Prefer: ${s.prefer})`)),
      ),
    );
  };
}

/** The languages Swagger UI's highlighter knows (bash, javascript, json, yaml, xml, http, powershell); others show as plain text. */
function highlightLanguage(lang: string): string {
  const name = lang.toLowerCase();
  if (/^(curl|shell|sh|bash|httpie|wget)$/.test(name)) return 'bash';
  if (/^(javascript|js|node|node\.js|typescript|ts)$/.test(name)) return 'javascript';
  if (/^(powershell|json|yaml|xml|http)$/.test(name)) return name;
  return 'text';
}

/** `2027-06-30` from a date as YAML gives it (a string, or a Date for an unquoted one). */
function dateOf(value: unknown): string | undefined {
  if (typeof value === 'string' && value) return value;
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString().slice(0, 10);
  return undefined;
}
