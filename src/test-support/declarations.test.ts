import { describe, expect, it } from 'vitest';
import { anyTypes, declaredValues, unexportedTypes } from './declarations.js';

describe('reading a declaration file', () => {
  it('finds `any` written as a type, not in comments or string literals', () => {
    const text = ['/** Origins allowed (default: any). */', "export type Hosts = readonly string[] | 'any';", 'export type Loose = {', '\t[keyword: string]: any;', '};', 'export declare function f(x: unknown): any[];'].join('\n');
    expect(anyTypes(text)).toEqual(['4: [keyword: string]: any;', '6: export declare function f(x: unknown): any[];']);
  });

  it('finds the types a user cannot import: declared without export, and not in an export list', () => {
    const text = ['declare class Budget {}', 'declare class Named {}', 'interface Hidden {}', 'export interface Shown { b: Budget; n: Named; h: Hidden }', 'declare const IDS: readonly ["a"];', 'export type Id = (typeof IDS)[number];', 'export type { Named };'].join('\n');
    expect(unexportedTypes(text)).toEqual(['Budget', 'Hidden']);
  });

  it('lists the values declared as exported: classes, constants and functions, not types', () => {
    const text = ['export declare class Budget {}', 'declare class Hidden {}', 'export declare const A = 1, B: string;', 'export declare function make(): Budget;', 'export interface Shape {}', 'export type Id = string;'].join('\n');
    expect(declaredValues(text)).toEqual(['A', 'B', 'Budget', 'make']);
  });
});
