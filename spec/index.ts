/**
 * notes-conformance/spec: the API document as data, for tools that want the catalogue without
 * the kit. The rules (each quoting the document), target profiles (validated against
 * profile.schema.json), and the OpenAPI document with a validator for its component schemas.
 */

export { listOperations, loadOpenApi, type OpenApiDocument, type OperationInfo } from './openapi.js';
export { OPERATIONS, type OperationId } from './operations.js';
export { packageRoot, specFile } from './paths.js';
export {
  type BuiltinProfileName,
  builtinProfilePath,
  loadBuiltinProfile,
  loadProfile,
  type Profile,
  ProfileError,
  parseProfile,
  profileField,
  profileSchema,
  REFUSAL_KINDS,
  type RefusalKind,
  validateProfile,
} from './profile.js';
export { RULE_IDS, type RuleId } from './rule-ids.js';
export { loadRules, RULE_ID_PATTERN, type Rule, type RuleLevel, ruleArea, rulesById, selectedByOnly } from './rules.js';
export { createSchemaRegistry, type SchemaRegistry } from './schemas.js';
export { kitVersion } from './version.js';
