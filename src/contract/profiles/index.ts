/**
 * The profiles a run can be given by name (--profile NAME).
 */
import { petstoreProfile } from './petstore.js';
import type { Profile } from './profile.js';

export const PROFILES: Record<string, Profile> = { [petstoreProfile.name]: petstoreProfile };
