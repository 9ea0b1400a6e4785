/**
 * A list's query parameters matched to its records' properties by name whatever the case and
 * separators (Twilio's `Status`, `To` and `DateCreated` filter `status`, `to` and `date_created`),
 * and the ones that match nothing said once at start, not ignored without a word.
 */
import { describe, expect, it } from 'vitest';
import { buildMock } from '../app.js';
import { loadDocument } from '../../openapi/document/load-document.js';

const call = {
  type: 'object',
  required: ['sid', 'to', 'status', 'date_created'],
  properties: {
    sid: { type: 'string' },
    to: { type: 'string' },
    status: { type: 'string', enum: ['queued', 'ringing', 'completed'] },
    date_created: { type: 'string' },
    start_time: { type: 'string' },
    'price-unit': { type: 'string' },
  },
};
const query = (name: string) => ({ name, in: 'query', schema: { type: 'string' } });

/** A Twilio-shaped document: PascalCase query names, snake_case properties. */
const calls = (parameters: object[]) =>
  loadDocument({
    openapi: '3.0.3',
    info: { title: 'Calls', version: '1' },
    paths: {
      '/Calls': {
        get: {
          operationId: 'listCalls',
          parameters,
          responses: { '200': { description: 'Calls.', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Call' } } } } } },
        },
        post: {
          operationId: 'createCall',
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Call' } } } },
          responses: { '201': { description: 'Made.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Call' } } } } },
        },
      },
      '/Calls/{sid}': {
        get: {
          operationId: 'getCall',
          parameters: [{ name: 'sid', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'A call.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Call' } } } } },
        },
      },
    },
    components: { schemas: { Call: call } },
  });

const FIXTURES = {
  Calls: [
    { sid: 'CA1', to: '+1500', status: 'ringing', date_created: '2031-01-01', start_time: '2031-01-01', 'price-unit': 'USD' },
    { sid: 'CA2', to: '+1501', status: 'completed', date_created: '2031-01-02', 'price-unit': 'EUR' },
    { sid: 'CA3', to: '+1500', status: 'completed', date_created: '2031-01-02', 'price-unit': 'USD' },
  ],
};

async function mockOf(parameters: object[]) {
  const warnings: string[] = [];
  const mock = buildMock(await calls(parameters), { fixtures: FIXTURES, counts: { default: 0 }, onWarning: (w) => warnings.push(w) });
  const sids = async (path: string) => {
    const response = await mock.app.request(path, { headers: { Authorization: 'Bearer petstore-demo-key' } });
    expect(response.status, path).toBe(200);
    return ((await response.json()) as Array<{ sid: string }>).map((c) => c.sid);
  };
  return { mock, warnings, sids };
}

describe('a list filtered by query parameters spelled otherwise than the properties', () => {
  it('filters `status` by `?Status=`, `to` by `?To=`, `date_created` by `?DateCreated=`, `price-unit` by `?PriceUnit=`', async () => {
    const { sids } = await mockOf([query('Status'), query('To'), query('DateCreated'), query('PriceUnit')]);
    expect(await sids('/Calls')).toEqual(['CA1', 'CA2', 'CA3']);
    expect(await sids('/Calls?Status=completed')).toEqual(['CA2', 'CA3']);
    expect(await sids('/Calls?To=%2B1500')).toEqual(['CA1', 'CA3']);
    expect(await sids('/Calls?Status=completed&To=%2B1500')).toEqual(['CA3']);
    expect(await sids('/Calls?DateCreated=2031-01-02')).toEqual(['CA2', 'CA3']);
    expect(await sids('/Calls?PriceUnit=EUR')).toEqual(['CA2']);
    expect(await sids('/Calls?Status=queued')).toEqual([]);
  });

  it('filters a property by its plural, a repeated one matching any of its values (`?Statuses=`)', async () => {
    const { sids, warnings } = await mockOf([{ name: 'Statuses', in: 'query', schema: { type: 'array', items: { type: 'string' } } }, query('Tos')]);
    expect(await sids('/Calls?Statuses=ringing&Statuses=queued')).toEqual(['CA1']);
    expect(await sids('/Calls?Tos=%2B1501')).toEqual(['CA2']);
    expect(warnings).toEqual([]);
  });

  it('prefers the property spelled exactly like the parameter', async () => {
    const { sids } = await mockOf([query('status'), query('Status')]);
    expect(await sids('/Calls?status=ringing')).toEqual(['CA1']);
    expect(await sids('/Calls?Status=completed')).toEqual(['CA2', 'CA3']);
  });

  it('takes a range parameter (`StartTime<`) for no property: it is not `start_time`', async () => {
    const { sids } = await mockOf([query('StartTime<'), query('StartTime')]);
    expect(await sids('/Calls?StartTime%3C=2031-01-01')).toEqual(['CA1', 'CA2', 'CA3']);
    expect(await sids('/Calls?StartTime=2031-01-01')).toEqual(['CA1']);
  });

  it('says once at start which query parameters filter nothing, and not the ones it applies, pages or sorts by', async () => {
    const { mock, warnings } = await mockOf([query('Status'), query('StartTime<'), query('Muted'), query('PageSize'), query('limit'), query('sort'), query('fields')]);
    const unapplied = warnings.filter((w) => w.includes('could not apply'));
    expect(unapplied).toEqual(['GET /Calls: the mock could not apply the query parameters StartTime< and Muted: no property of its records is named so; they are accepted and filter nothing.']);
    expect(mock.warnings).toEqual(warnings);
  });

  it('says nothing when every query parameter is applied', async () => {
    const { warnings } = await mockOf([query('Status'), query('To'), query('limit'), query('offset')]);
    expect(warnings).toEqual([]);
  });
});
