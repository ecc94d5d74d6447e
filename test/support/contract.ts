// The contract check: every response call() receives is held to the OpenAPI document the stack serves
// (GET /openapi.json, generated from the same zod schemas as the API). The request's method and path
// pick the route of lib/routes.ts, then the status picks the documented response, whose media type and
// JSON Schema the body must satisfy and whose required headers must be there; a request no route
// matches is held to the fallback's documented answers.
// So every integration test is also a contract test.
import assert from 'node:assert/strict';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { matchRoute } from '../../lib/routes.ts';
import type { OpenApiDocument } from '../../openapi/document.ts';
import type { OpenApiResponse } from '../../openapi/types.ts';

export interface ReceivedResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

interface HeaderObject {
  required?: boolean;
  schema?: { type?: string };
}

const DOCUMENT_KEY = 'openapi';
/** A JSON Pointer segment (RFC 6901): `application/json` → `application~1json`. */
const pointerSegment = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

export class Contract {
  readonly #document: OpenApiDocument;
  readonly #ajv = new Ajv2020({ strict: false, allErrors: true });
  readonly #validators = new Map<string, ValidateFunction>();

  constructor(document: OpenApiDocument) {
    this.#document = document;
    // ajv-formats is CommonJS: its default export is the plugin, typed as the module.
    addFormats.default(this.#ajv);
    // The whole document, so that refs to #/components/… resolve; it is not itself a JSON Schema.
    this.#ajv.addSchema(document, DOCUMENT_KEY, undefined, false);
  }

  /** The documented responses for a request, and the JSON Pointer of each response in the document. */
  #responsesFor(
    method: string,
    path: string,
  ): { where: string; pointer: string; responses: Record<string, unknown> } {
    const match = matchRoute(method, path);
    if (match.kind === 'route') {
      const { path: template } = match.route;
      const operation = this.#document.paths[template]?.[method.toLowerCase()];
      assert.ok(operation, `the document has no ${method} ${template}`);
      return {
        where: `${method} ${template}`,
        pointer: `/paths/${pointerSegment(template)}/${method.toLowerCase()}/responses`,
        responses: operation.responses,
      };
    }
    return {
      where: `an unmatched request (${method} ${path})`,
      pointer: '/x-unmatched-requests/responses',
      responses: this.#document['x-unmatched-requests'].responses,
    };
  }

  /** Follows a `#/components/responses/…` reference to the response and its pointer. */
  #resolve(response: unknown, pointer: string): { response: OpenApiResponse; pointer: string } {
    const ref = (response as { $ref?: string }).$ref;
    if (!ref) return { response: response as OpenApiResponse, pointer };
    const name = ref.replace('#/components/responses/', '');
    const target = this.#document.components.responses[name];
    assert.ok(target, `the document has no ${ref}`);
    return { response: target, pointer: `/components/responses/${pointerSegment(name)}` };
  }

  #validator(pointer: string): ValidateFunction {
    let validate = this.#validators.get(pointer);
    if (!validate) {
      validate = this.#ajv.getSchema(`${DOCUMENT_KEY}#${pointer}`);
      assert.ok(validate, `no schema at ${pointer}`);
      this.#validators.set(pointer, validate);
    }
    return validate;
  }

  /** How `value` breaks the schema at `pointer` (a JSON Pointer into the document); [] when it fits. */
  schemaViolations(pointer: string, value: unknown): string[] {
    const validate = this.#validator(pointer);
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (error) => `${error.instancePath || '/'} ${error.message} (${error.schemaPath})`,
    );
  }

  /** Documented headers: each required one present, each present one of its schema (numbers parsed). */
  #headerViolations(response: OpenApiResponse, pointer: string, headers: Headers): string[] {
    return Object.entries(response.headers ?? {}).flatMap(([name, declared]) => {
      const ref = (declared as { $ref?: string }).$ref;
      const component = ref?.replace('#/components/headers/', '');
      const header = (component ? this.#document.components.headers?.[component] : declared) as HeaderObject;
      const value = headers.get(name);
      if (value === null) return header.required ? [`header ${name} is missing`] : [];
      const schemaPointer = component
        ? `/components/headers/${pointerSegment(component)}/schema`
        : `${pointer}/headers/${pointerSegment(name)}/schema`;
      const numeric = header.schema?.type === 'integer' || header.schema?.type === 'number';
      return this.schemaViolations(schemaPointer, numeric ? Number(value) : value).map(
        (violation) => `header ${name} ${violation}`,
      );
    });
  }

  /** Everything about `received` that the document does not allow; [] when it conforms. */
  violations(method: string, url: string, received: ReceivedResponse): string[] {
    const path = new URL(url).pathname;
    const { where, pointer, responses } = this.#responsesFor(method, path);
    const documented = responses[String(received.status)];
    if (!documented) return [`${where} does not document status ${received.status}`];
    const { response, pointer: responsePointer } = this.#resolve(documented, `${pointer}/${received.status}`);
    const headerViolations = this.#headerViolations(response, responsePointer, received.headers).map(
      (violation) => `${where} ${received.status}: ${violation}`,
    );
    return [...headerViolations, ...this.#bodyViolations(where, response, responsePointer, received)];
  }

  /** The body: of a documented media type, and of that media type's schema. */
  #bodyViolations(
    where: string,
    response: OpenApiResponse,
    responsePointer: string,
    received: ReceivedResponse,
  ) {
    if (!response.content) {
      return received.body === undefined
        ? []
        : [`${where} ${received.status} documents no body, but one came`];
    }
    const mediaType = (received.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
    if (!response.content[mediaType]) {
      const documentedTypes = Object.keys(response.content).join(', ');
      return [`${where} ${received.status} answers ${documentedTypes}, not "${mediaType}"`];
    }
    const schemaPointer = `${responsePointer}/content/${pointerSegment(mediaType)}/schema`;
    return this.schemaViolations(schemaPointer, received.body).map(
      (violation) => `${where} ${received.status}: body ${violation}`,
    );
  }
}

let loaded: Promise<Contract> | undefined;

/** The contract of the stack under test, loaded once per test process from its GET /openapi.json. */
export function stackContract(baseUrl: string): Promise<Contract> {
  loaded ??= fetch(new URL('/openapi.json', baseUrl)).then(async (response) => {
    assert.equal(response.status, 200, 'the stack serves no /openapi.json');
    return new Contract((await response.json()) as OpenApiDocument);
  });
  return loaded;
}

/** Fails the calling test when a response is not what the document says. */
export async function assertConforms(
  method: string,
  url: string,
  baseUrl: string,
  received: ReceivedResponse,
): Promise<void> {
  const problems = (await stackContract(baseUrl)).violations(method, url, received);
  if (problems.length === 0) return;
  const body = JSON.stringify(received.body)?.slice(0, 2000);
  assert.fail(`The response breaks the OpenAPI contract:\n  ${problems.join('\n  ')}\nbody: ${body}`);
}
