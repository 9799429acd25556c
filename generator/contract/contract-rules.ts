/** Whether a difference between two contracts breaks clients of the older one. */
export type ContractSeverity = 'breaking' | 'additive'

interface ContractRule {
  readonly severity: ContractSeverity
  /** How to resolve the finding without a new major version (breaking) or what to do about it (additive). */
  readonly fix: string
}

/**
 * Every rule `compareContracts` applies, by stable ID; docs/contract-rules.md
 * documents each with an example. Names follow oasdiff's checks and buf's
 * breaking rules (`REQUEST_PROPERTY_MAX_DECREASED`, `FIELD_NO_DELETE`), in
 * restmint's own words.
 */
export const CONTRACT_RULES = {
  PATH_REMOVED: { severity: 'breaking', fix: 'serve the path again' },
  OPERATION_REMOVED: { severity: 'breaking', fix: 'allow the method on the path again' },
  RESOURCE_RENAMED: { severity: 'breaking', fix: 'keep the old collection name' },
  RESOURCE_REROOTED: { severity: 'breaking', fix: 'keep the resource nested under its old parent' },
  SUCCESS_STATUS_REMOVED: { severity: 'breaking', fix: 'answer with the old success status' },
  RESPONSE_MEDIA_TYPE_CHANGED: { severity: 'breaking', fix: 'answer with the old media type' },
  REQUEST_MEDIA_TYPE_REMOVED: { severity: 'breaking', fix: 'accept the old media type again' },
  RESPONSE_ENVELOPE_CHANGED: { severity: 'breaking', fix: 'keep the response body shape (data, meta, links)' },
  RESPONSE_FIELD_REMOVED: { severity: 'breaking', fix: 'keep returning the field' },
  RESPONSE_FIELD_RENAMED: { severity: 'breaking', fix: 'keep the old field name' },
  RESPONSE_FIELD_BECAME_OPTIONAL: { severity: 'breaking', fix: 'keep returning the field in every response' },
  RESPONSE_NULLABLE_ADDED: { severity: 'breaking', fix: 'keep the field non-nullable' },
  RESPONSE_ENUM_VALUE_ADDED: { severity: 'breaking', fix: 'return only the old enum values' },
  REQUEST_FIELD_REMOVED: { severity: 'breaking', fix: 'accept the field again' },
  REQUEST_FIELD_RENAMED: { severity: 'breaking', fix: 'keep the old field name' },
  REQUEST_FIELD_REQUIRED_ADDED: { severity: 'breaking', fix: 'make the new field optional (give it a default)' },
  REQUEST_FIELD_BECAME_REQUIRED: { severity: 'breaking', fix: 'keep the field optional' },
  REQUEST_PARAMETER_REQUIRED_ADDED: { severity: 'breaking', fix: 'make the new parameter optional' },
  REQUEST_PARAMETER_BECAME_REQUIRED: { severity: 'breaking', fix: 'keep the parameter optional' },
  REQUEST_NULLABLE_REMOVED: { severity: 'breaking', fix: 'keep accepting null' },
  REQUEST_ENUM_VALUE_REMOVED: { severity: 'breaking', fix: 'accept the removed enum value again' },
  REQUEST_MAX_LENGTH_DECREASED: { severity: 'breaking', fix: 'keep the old max_length' },
  REQUEST_MIN_LENGTH_INCREASED: { severity: 'breaking', fix: 'keep the old min_length' },
  REQUEST_MINIMUM_INCREASED: { severity: 'breaking', fix: 'keep the old minimum' },
  REQUEST_MAXIMUM_DECREASED: { severity: 'breaking', fix: 'keep the old maximum' },
  REQUEST_MAX_ITEMS_DECREASED: { severity: 'breaking', fix: 'keep the old limit (include_max)' },
  REQUEST_PATTERN_CHANGED: { severity: 'breaking', fix: 'keep the old pattern, or none' },
  FIELD_TYPE_CHANGED: { severity: 'breaking', fix: 'keep the old type' },
  QUERY_PARAMETER_REMOVED: { severity: 'breaking', fix: 'accept the query parameter again' },
  FILTER_OPERATOR_REMOVED: { severity: 'breaking', fix: 'list the operator under its filter (or remove_field’s)' },
  SORT_FIELD_REMOVED: { severity: 'breaking', fix: 'list the field under its sort (or remove_field’s sort)' },
  INCLUDE_PATH_REMOVED: { severity: 'breaking', fix: 'list the path under the resource’s include again' },
  PER_PAGE_MAX_DECREASED: { severity: 'breaking', fix: 'keep limits.per_page_max at least the old value' },
  SECURITY_REQUIREMENT_ADDED: { severity: 'breaking', fix: 'keep the operation public' },
  SECURITY_TIGHTENED: { severity: 'breaking', fix: 'keep accepting the credentials and scopes accepted before' },
  OWNER_RULE_ADDED: { severity: 'breaking', fix: 'keep every record reachable to the callers who reached it' },
  PATH_ADDED: { severity: 'additive', fix: 'publish the version to record it' },
  OPERATION_ADDED: { severity: 'additive', fix: 'publish the version to record it' },
  SUCCESS_STATUS_ADDED: { severity: 'additive', fix: 'publish the version to record it' },
  REQUEST_MEDIA_TYPE_ADDED: { severity: 'additive', fix: 'publish the version to record it' },
  REQUEST_FIELD_ADDED: { severity: 'additive', fix: 'publish the version to record it' },
  RESPONSE_FIELD_ADDED: { severity: 'additive', fix: 'publish the version to record it' },
  REQUEST_ENUM_VALUE_ADDED: { severity: 'additive', fix: 'publish the version to record it' },
  QUERY_PARAMETER_ADDED: { severity: 'additive', fix: 'publish the version to record it' },
  FILTER_OPERATOR_ADDED: { severity: 'additive', fix: 'publish the version to record it' },
  SORT_FIELD_ADDED: { severity: 'additive', fix: 'publish the version to record it' },
  INCLUDE_PATH_ADDED: { severity: 'additive', fix: 'publish the version to record it' },
  REQUEST_CONSTRAINT_RELAXED: { severity: 'additive', fix: 'publish the version to record it' },
  SECURITY_REMOVED: { severity: 'additive', fix: 'publish the version to record it' },
  SECURITY_LOOSENED: { severity: 'additive', fix: 'publish the version to record it' },
  OWNER_RULE_REMOVED: { severity: 'additive', fix: 'publish the version to record it' },
  DELETE_MADE_SOFT: {
    severity: 'additive',
    fix: 'publish the version to record it; deleted records stay until restmint purge, and their cascade children with them',
  },
} as const satisfies Record<string, ContractRule>

export type ContractRuleId = keyof typeof CONTRACT_RULES
