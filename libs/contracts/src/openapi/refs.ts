import type { ReferenceObject } from './openapi-types';

/** `$ref`s into the document's own components; the spec test checks that every one resolves. */
export const schemaRef = (name: string): ReferenceObject => ({ $ref: `#/components/schemas/${name}` });
export const parameterRef = (name: string): ReferenceObject => ({ $ref: `#/components/parameters/${name}` });
export const headerRef = (name: string): ReferenceObject => ({ $ref: `#/components/headers/${name}` });
export const requestBodyRef = (name: string): ReferenceObject => ({ $ref: `#/components/requestBodies/${name}` });
export const responseRef = (name: string): ReferenceObject => ({ $ref: `#/components/responses/${name}` });
