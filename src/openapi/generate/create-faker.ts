/**
 * Faker instances that load only the English locale. The package's main entry imports every
 * locale (about 200 ms and 27 MB at start); `@faker-js/faker/locale/en` loads one and exports a
 * ready instance, whose class makes independent, separately seeded instances.
 */
import type { Faker } from '@faker-js/faker';
import { faker as english } from '@faker-js/faker/locale/en';

const FakerClass = english.constructor as new (options: { locale: Faker['rawDefinitions'][] }) => Faker;

/** A new Faker with its own seed. @example const faker = createFaker(); faker.seed(7); */
export function createFaker(): Faker {
  return new FakerClass({ locale: [english.rawDefinitions] });
}
