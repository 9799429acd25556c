/**
 * What generated code imports at run time (`restmint/runtime`), and what a
 * team needs to mount a generated API in its own Fastify app.
 */
export { ajvRuntime } from './contract/validator.js'
export {
  defineApp,
  type AfterCommitEvent,
  type ApiShape,
  type AppDb,
  type AppDefinition,
  type ComputeFields,
  type HookCaller,
  type HookContext,
  type ResourceDb,
  type ResourceHooks,
  type ResourceShape,
} from './app/define-app.js'
export {
  API_OPERATIONS,
  type OperationContext,
  type OperationHandler,
  type OperationHandlers,
  type OperationShape,
  type OperationsOf,
} from './app/operation-handler.js'
export { HOOK_NAMES, type HookName } from './contract/hook-name.js'
export { AppProblemError, problem, type ProblemOptions } from './app/problem.js'
export { apiServerOptions, buildApiServer, type ServerOptions, type ServerTimeouts } from './api/build-api-server.js'
export { createApiPlugin, type ApiPluginOptions } from './api/create-api-plugin.js'
export type {
  AccessOperation,
  AccessRule,
  ApiAuth,
  AuthScheme,
  OwnerRule,
  TableAccess,
} from './contract/access-rule.js'
export type { ApiLimits } from './contract/api-limits.js'
export type { FieldType } from './contract/field-type.js'
export type { FilterOperator } from './contract/filter-operator.js'
export {
  defineApi,
  type ApiCors,
  type ApiDefinition,
  type ApiGuide,
  type ApiHttp,
  type ApiVersion,
} from './contract/define-api.js'
export { applyMigrations, type AppliedMigrations, type ApplyMigrationsOptions } from './migrations/apply-migrations.js'
export type { AppliedMigration } from './migrations/applied-migrations.js'
export { MigrationDirectoryError } from './migrations/list-migrations.js'
export { MigrationError } from './migrations/migration-error.js'
export type { MigrationFile } from './migrations/read-migration-files.js'
export type { MigrationState } from './migrations/read-migration-state.js'
export { readMigrationStatus } from './migrations/read-migration-status.js'
export type { MigrationTarget } from './migrations/with-migration-target.js'
export { HEALTH_PATHS, isHealthRoute } from './ops/health-routes.js'
export { PROBLEM_CATALOGUE, problemTypeUri, type ProblemCode } from './problems/problem-catalogue.js'
export { ProblemError, type InvalidParam, type ProblemDetails } from './problems/problem-error.js'
export type { QueryRules } from './contract/query-rules.js'
export { identifyRateLimitClient } from './ops/rate-limit-client.js'
export type { RatePolicy } from './contract/rate-policy.js'
export type { RegisterResource, ResourceBodies, ResourceRoutes } from './contract/resource-routes.js'
export type { OperationRoute } from './contract/operation-route.js'
export type { VersionTranslation } from './contract/version-translation.js'
export { ServerConfigurationError } from './ops/server-configuration-error.js'
export { createStorage } from './storage/create-storage.js'
export type { PostgresPoolOptions } from './storage/postgres/postgres-dialect.js'
export type {
  Filter,
  ListOptions,
  ListResult,
  RowPrecondition,
  RowFilter,
  SortKey,
  Storage,
} from './storage/storage.js'
export {
  InvalidValueError,
  MissingReferenceError,
  PreconditionFailedError,
  RowReferencedError,
  SchemaMismatchError,
  StorageBusyError,
  StorageUrlError,
  TransactionAbortedError,
  TransactionEndedError,
  UniqueViolationError,
} from './storage/storage-errors.js'
export type { ColumnDefinition, ColumnValue, Row, TableDefinition } from './contract/table-definition.js'
export type { Validator } from './contract/validator.js'
