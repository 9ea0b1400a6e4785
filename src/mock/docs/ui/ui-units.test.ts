/**
 * The docs page's Swagger UI plugin, run without a browser: a fake `system` whose React records
 * what it is asked to build (and keeps hook state between renders), so each wrapper's output can
 * be read as a tree. docs-ui.ts and request-log.ts build DOM nodes (docs-ui.ts at import), so they
 * are left to the browser tier (src/mock/docs/docs-page.browser.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { DocumentObject } from '../../../openapi/document/objects.js';
import type { DocsConfig } from '../docs-document.js';
import { collapsibleDescription } from './collapsible-description.js';
import { errorExamples } from './error-examples.js';
import { mockDocsPlugin } from './plugin.js';
import type { Component, ExecuteRequest, GetComponent, ImmutableMap, System } from './swagger-ui.js';

/** What createElement was asked for. */
interface Built {
  type: unknown;
  props: Record<string, unknown>;
  children: unknown[];
}
const isBuilt = (node: unknown): node is Built => typeof node === 'object' && node !== null && 'children' in node && 'type' in node;
/** Every element of a tree, arrays of children included (function components are not called: `render` does that). */
const all = (node: unknown): Built[] => (Array.isArray(node) ? node.flatMap(all) : isBuilt(node) ? [node, ...node.children.flatMap(all)] : []);
const text = (node: unknown): string => (Array.isArray(node) ? node.map(text).join('') : isBuilt(node) ? text(node.children) : typeof node === 'string' ? node : '');

/** A React that records elements; `useState` keeps its values by call order, as React does, from one render to the next. */
function fakeSystem(lookups: string[] = []) {
  const values: unknown[] = [];
  let hook = 0;
  const system: System = {
    React: {
      createElement: (type, props, ...children) => ({ type, props: props ?? {}, children }),
      Fragment: 'Fragment',
      useState<T>(initial: T): [T, (value: T) => void] {
        const at = hook++;
        if (!(at in values)) values[at] = initial;
        return [values[at] as T, (value: T) => void (values[at] = value)];
      },
    },
    getComponent: (name) => (lookups.push(name), `component:${name}`),
  };
  const render = <P,>(component: Component<P>, props: P): unknown => ((hook = 0), component(props));
  return { system, render };
}

const Original = 'Original';
const DOC: DocumentObject = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1' },
  paths: {
    '/pets': {
      get: {
        'x-stability': 'Beta!',
        'x-codeSamples': [{ lang: 'curl', label: 'cURL', source: 'curl http://127.0.0.1:4010/pets' }, { lang: 'python', source: 'requests.get(url)' }, { lang: 'broken' }],
        responses: { '200': { description: 'The pets.', content: { 'application/json': { examples: { empty: { value: [] } } } } }, '404': { description: 'None.' }, default: { description: 'Error.' } },
      },
    },
    '/old': { get: { deprecated: true, 'x-stability': 'stable', 'x-deprecated-at': '2026-01-01', 'x-sunset': '2027-06-30', responses: { '200': { description: 'ok' } } } },
    '/hidden': { post: { 'x-hideTryItPanel': true, responses: { default: { description: 'ok' } } } },
    '/own-prefer': { get: { parameters: [{ name: 'prefer', in: 'header', schema: { type: 'string' } }], responses: { '200': { description: 'ok' } } } },
  },
};
const CONFIG: DocsConfig = { title: 'Pets', specUrl: '/__spec.json', basePath: '', deprecations: { 'get /old': { Deprecation: '@1767225600', Sunset: 'Wed, 30 Jun 2027 00:00:00 GMT' } } };

/** A fresh plugin (its chosen scenarios start empty): each wrapper by name, and its spec state plugin. */
function plugin() {
  const made = mockDocsPlugin(DOC, CONFIG)();
  return { wrap: (name: string, system: System) => made.wrapComponents![name](Original, system), spec: made.statePlugins!.spec };
}

describe('mockDocsPlugin: what an operation shows', () => {
  it('shows x-codeSamples as tabs pointing at the highlighter, the first selected, another chosen on click', () => {
    const lookups: string[] = [];
    const { system, render } = fakeSystem(lookups);
    const tree = plugin().wrap('parameters', system)({ pathMethod: ['/pets', 'get'] });
    const [notice, noTryIt, samples, original] = isBuilt(tree) ? tree.children : [];
    expect([notice, noTryIt, (original as Built).type]).toEqual([null, null, Original]);
    const { type, props } = samples as Built;
    expect(props).toEqual({ samples: [{ lang: 'curl', label: 'cURL', source: 'curl http://127.0.0.1:4010/pets' }, { lang: 'python', source: 'requests.get(url)' }], id: 'get /pets' });
    const Samples = type as Component<typeof props>;
    const tabs = () => all(render(Samples, props)).filter((e) => e.props.role === 'tab');
    expect(tabs().map((tab) => [text(tab), tab.props['aria-selected']])).toEqual([['cURL', true], ['python', false]]);
    const panel = () => all(render(Samples, props)).find((e) => e.type === 'component:HighlightCode')!;
    expect([panel().props.language, text(panel())]).toEqual(['bash', 'curl http://127.0.0.1:4010/pets']);
    expect(lookups).toContain('HighlightCode');
    (tabs()[1].props.onClick as () => void)();
    expect(tabs().map((tab) => tab.props['aria-selected'])).toEqual([false, true]);
    expect([panel().props.language, text(panel())]).toEqual(['text', 'requests.get(url)']); // python: not a language the highlighter knows
    expect(render(Samples, { samples: [], id: 'x' })).toBeNull();
  });

  it('puts a notice with the dates and the headers the mock sends on a deprecated operation, and badges it instead of its stability', () => {
    const { system } = fakeSystem();
    const { wrap } = plugin();
    const notice = all(wrap('parameters', system)({ pathMethod: ['/old', 'get'] })).find((e) => e.props.role === 'note');
    expect(text(notice)).toBe('Deprecated since 2026-01-01; sunset on 2027-06-30.The mock sends: Deprecation: @1767225600, Sunset: Wed, 30 Jun 2027 00:00:00 GMT');
    const badges = (path: string) => all(wrap('OperationSummaryPath', system)({ operationProps: { get: (key: string) => (key === 'path' ? path : 'get') } })).filter((e) => e.type === 'span');
    expect(badges('/old').map((b) => [b.props.className, text(b)])).toEqual([['mock-badge mock-deprecated', 'deprecated · sunset 2027-06-30']]);
    expect(badges('/pets').map((b) => [b.props.className, text(b)])).toEqual([['mock-badge mock-stability mock-stability-beta', 'Beta!']]);
  });

  it('says Try it out is off where x-hideTryItPanel is set, and the allowTryItOutFor selector agrees', () => {
    const { system } = fakeSystem();
    const { wrap, spec } = plugin();
    const note = all(wrap('parameters', system)({ pathMethod: ['/hidden', 'post'] })).find((e) => e.props.className === 'mock-no-try-it');
    expect(text(note)).toMatch(/x-hideTryItPanel/);
    const asked: unknown[][] = [];
    const allow = spec.wrapSelectors!.allowTryItOutFor((...args: unknown[]) => (asked.push(args), args[0] !== '/refused'), system);
    expect([allow({}, '/hidden', 'post'), allow({}, '/pets', 'get'), allow({}, '/refused', 'get')]).toEqual([false, true, false]);
    expect(asked).toEqual([['/pets', 'get'], ['/refused', 'get']]); // Swagger UI's own answer is asked only where the document allows it
  });

  it('makes a lookup of a JsonSchema_<type>_<format> silent, once per lookup function', () => {
    const { system } = fakeSystem();
    const calls: unknown[][] = [];
    const getComponent: GetComponent = (...args) => calls.push(args);
    const wrapper = plugin().wrap('JsonSchema_array', system);
    const silent = (wrapper({ getComponent }) as Built).props.getComponent as GetComponent;
    silent('JsonSchema_integer_int64', false);
    silent('JsonSchema_array', false, { failSilently: false });
    expect(calls).toEqual([['JsonSchema_integer_int64', false, { failSilently: true }], ['JsonSchema_array', false, { failSilently: false }]]);
    expect((wrapper({ getComponent }) as Built).props.getComponent).toBe(silent);
  });
});

describe('mockDocsPlugin: the Prefer scenario', () => {
  const request = (pathName: string): ExecuteRequest => ({ pathName, method: 'get', spec: { paths: { [pathName]: { get: { parameters: [] } } } }, parameters: { 'query.limit': 2 } });

  it('offers the declared statuses and named examples beside Execute, and sends the chosen one as a Prefer header', () => {
    const { system, render } = fakeSystem();
    const { wrap, spec } = plugin();
    const sent: ExecuteRequest[] = [];
    const execute = spec.wrapActions!.executeRequest((given: ExecuteRequest) => sent.push(given), system);
    const [picker] = (wrap('execute', system)({ path: '/pets', method: 'get' }) as Built).children as Built[];
    const options = all(render(picker.type as Component<typeof picker.props>, picker.props)).filter((e) => e.type === 'option');
    expect(options.map((o) => o.props.value)).toEqual(['', 'code=200', 'code=404', 'example=empty']);

    const plain = request('/pets');
    execute(plain);
    expect(sent[0]).toBe(plain); // nothing chosen: the request as it was
    (picker.props.onChange as (value: string) => void)('code=404');
    execute(request('/pets'));
    expect(sent[1].parameters).toEqual({ 'query.limit': 2, 'header.Prefer': 'code=404' });
    expect(sent[1].spec.paths['/pets'].get.parameters).toEqual([{ name: 'Prefer', in: 'header', schema: { type: 'string' } }]);
    (picker.props.onChange as (value: string) => void)('');
    execute(request('/pets'));
    expect(sent[2].parameters).toEqual({ 'query.limit': 2 });
  });

  it("fills an operation's own Prefer parameter, and offers no picker where nothing numeric is declared", () => {
    const { system } = fakeSystem();
    const { wrap, spec } = plugin();
    const sent: ExecuteRequest[] = [];
    const execute = spec.wrapActions!.executeRequest((given: ExecuteRequest) => sent.push(given), system);
    const [picker] = (wrap('execute', system)({ path: '/own-prefer', method: 'get' }) as Built).children as Built[];
    (picker.props.onChange as (value: string) => void)('code=200');
    execute({ pathName: '/own-prefer', method: 'get', spec: { paths: { '/own-prefer': { get: { parameters: [{ name: 'prefer', in: 'header' }] } } } } } satisfies ExecuteRequest);
    expect(sent[0].parameters).toEqual({ 'header.prefer': 'code=200' });
    expect(sent[0].spec.paths['/own-prefer'].get.parameters).toHaveLength(1);
    expect((wrap('execute', system)({ path: '/hidden', method: 'post' }) as Built).children[0]).toBeNull(); // `default` names no status
  });
});

/** An Immutable.js Map as far as the wrappers use it, over a plain object (setIn copies). */
function immutable(value: Record<string, unknown>): ImmutableMap {
  const at = (path: readonly string[]) => path.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], value);
  return {
    get: (key) => (typeof value[key] === 'object' && value[key] !== null ? immutable(value[key] as Record<string, unknown>) : value[key]),
    getIn: at,
    setIn: (path, next) => {
      const copy = structuredClone(value);
      let node = copy;
      for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
      node[path[path.length - 1]] = next;
      return immutable(copy);
    },
    toJS: () => structuredClone(value),
  };
}

describe('errorExamples and collapsibleDescription', () => {
  it('gives an error response without an example the generated one with its status in, once per response, and leaves the rest alone', () => {
    const { system } = fakeSystem();
    const Response = errorExamples(Original, system);
    const fn = { getSampleSchema: () => '{"code":"VALIDATION_FAILED","message":"string","status":599}' };
    const response = immutable({ content: { 'application/json': { schema: { type: 'object' } }, 'application/xml': { schema: { type: 'object' } }, 'application/problem+json': { schema: {}, example: { own: true } } } });
    const shown = (Response({ response, code: '404', fn }) as Built).props.response as ImmutableMap;
    expect(shown.getIn(['content', 'application/json', 'example'])).toEqual({ code: 'NOT_FOUND', message: 'string', status: 404 });
    expect(shown.getIn(['content', 'application/xml', 'example'])).toBeUndefined();
    expect(shown.getIn(['content', 'application/problem+json', 'example'])).toEqual({ own: true });
    expect((Response({ response, code: '404', fn }) as Built).props.response).toBe(shown);
    expect((Response({ response, code: '200', fn }) as Built).props.response).toBe(response);
  });

  it('collapses a description of several blocks behind a button, and leaves one of a single block as it is', () => {
    const { system, render } = fakeSystem();
    const Info = collapsibleDescription(Original, system);
    const measured = (blocks: number) => ({ querySelector: () => ({ childElementCount: blocks }) }) as unknown as HTMLElement;
    const box = () => render(Info, { title: 'Pets' }) as Built;
    (box().props.ref as (element: HTMLElement | null) => void)(measured(3));
    expect(box().props.className).toBe('mock-info mock-info-collapsed');
    const button = () => all(box()).find((e) => e.type === 'button')!;
    expect([text(button()), button().props['aria-expanded']]).toEqual(['Show the whole description', false]);
    (button().props.onClick as () => void)();
    expect([box().props.className, text(button()), button().props['aria-expanded']]).toEqual(['mock-info', 'Show less of the description', true]);
    const single = fakeSystem();
    const Short = collapsibleDescription(Original, single.system);
    const one = () => single.render(Short, {}) as Built;
    (one().props.ref as (element: HTMLElement | null) => void)(measured(1));
    expect([one().props.className, one().children[1]]).toEqual(['mock-info', null]);
  });
});
