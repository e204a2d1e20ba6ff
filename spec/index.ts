/**
 * notes-conformance/spec: the API document as data, for tools that want the catalogue without
 * the kit. The rules (each quoting the document), target profiles (validated against
 * profile.schema.json), and the OpenAPI document with a validator for its component schemas.
 */
export { type Rule, type RuleLevel, RULE_ID_PATTERN, loadRules, ruleArea, rulesById, selectedByOnly } from './rules.js';
export {
  type BuiltinProfileName, type Profile, type RefusalKind, ProfileError, REFUSAL_KINDS,
  builtinProfilePath, loadBuiltinProfile, loadProfile, parseProfile, profileField, profileSchema, validateProfile,
} from './profile.js';
export { type OpenApiDocument, type OperationInfo, listOperations, loadOpenApi } from './openapi.js';
export { type SchemaRegistry, createSchemaRegistry } from './schemas.js';
export { packageRoot, specFile } from './paths.js';
export { kitVersion } from './version.js';
