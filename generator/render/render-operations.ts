import {
  type ApiModel,
  type FieldModel,
  type OperationModel,
  type StorageMapping,
  type VersionModel,
  findResource,
} from '../model/api-model.js'
import { tableConstantName } from '../names/generated-names.js'
import { compileValidators } from './compile-validators.js'
import type { ContentCache } from '../emit/content-cache.js'
import { buildOperationSchemas } from './json-schemas.js'
import type { RenderTemplate } from './load-templates.js'
import type { HeaderView, MemberView, OperationRoutesView, OperationTypesView } from './template-views.js'

/** Where renderers put each file they render. */
interface RenderedFiles {
  set(path: string, contents: string): void
}

/** What rendering a version's operations needs besides the model. */
export interface OperationsTarget {
  readonly header: HeaderView
  readonly version: VersionModel
  /** How the version's resources reach the storage; null for a version documented but not served. */
  readonly mappings: ReadonlyMap<string, StorageMapping> | null
  /** The version has translate/ modules (its records differ from the storage's rows). */
  readonly translated: boolean
  /** Builds a member of a generated interface (render-project.ts), so operation types read like resource types. */
  readonly member: (field: FieldModel, optional: boolean, nullable: boolean) => MemberView
}

/**
 * A version's custom operations, in `<version>/operations/`: `types.ts`
 * (bodies, queries, results and the `Operations` map the app module is typed
 * by) always; for a served version also `routes.ts` (the runtime's
 * OperationRoute data) and `validators.js` with its declarations. Nothing
 * when the version has no operations.
 */
export function renderOperations(
  model: ApiModel,
  target: OperationsTarget,
  render: RenderTemplate,
  cache: ContentCache,
  files: RenderedFiles,
): void {
  const { version, header } = target
  if (version.operations.length === 0) return
  const dir = `${version.name}/operations`
  files.set(`${dir}/types.ts`, render('operation-types.ts', buildTypesView(model, target)))
  if (target.mappings === null) return
  const schemas = new Map<string, object>()
  const validators: { name: string; type: string; many: boolean }[] = []
  for (const operation of version.operations) {
    const names = validatorNames(operation)
    const { body, query, result } = buildOperationSchemas(operation)
    const many = operation.responds?.kind === 'shape' && operation.responds.many
    for (const [name, type, schema, isMany] of [
      [names.body, `${operation.typeName}Body`, body, false],
      [names.query, `${operation.typeName}Query`, query, false],
      [names.result, `${operation.typeName}Result`, result, many],
    ] as const) {
      if (schema === null) continue
      schemas.set(name, schema)
      validators.push({ name, type, many: isMany })
    }
  }
  const compiled = compileValidators(schemas, cache)
  files.set(
    `${dir}/validators.js`,
    render('validators.js', { ...header, code: compiled.code, aliases: compiled.aliases }),
  )
  files.set(`${dir}/validators.d.ts`, render('operation-validators.d.ts', { ...header, validators }))
  files.set(`${dir}/routes.ts`, render('operation-routes.ts', buildRoutesView(model, target, target.mappings)))
}

function validatorNames(operation: OperationModel): { body: string; query: string; result: string } {
  const stem = operation.typeName.charAt(0).toLowerCase() + operation.typeName.slice(1)
  return { body: `${stem}Body`, query: `${stem}Query`, result: `${stem}Result` }
}

function buildRoutesView(
  model: ApiModel,
  { header, version, translated }: OperationsTarget,
  mappings: ReadonlyMap<string, StorageMapping>,
): OperationRoutesView {
  const used = new Set<string>()
  const translationOf = (resource: string): string | null => {
    if (!translated) return null
    used.add(resource)
    return translationAlias(resource)
  }
  const tableOf = (resource: string): string =>
    tableConstantName(mappings.get(findResource(model, resource).name)!.storage.identifier)
  const operations = version.operations.map((operation) => {
    const names = validatorNames(operation)
    const { responds } = operation
    return {
      handler: operation.handler,
      method: operation.method,
      path: `${version.prefix}${operation.path}`,
      url: operation.url,
      status: operation.status,
      target: operation.idParam === null ? null : { table: tableOf(operation.resource), param: operation.idParam },
      body:
        operation.body === null ? null : { fields: operation.body.map((field) => field.name), validator: names.body },
      query:
        operation.query.length === 0
          ? null
          : {
              fields: Object.fromEntries(operation.query.map((field) => [field.name, field.type])),
              validator: names.query,
            },
      record:
        responds?.kind === 'record'
          ? { table: tableOf(responds.resource), translation: translationOf(responds.resource) }
          : null,
      shape: responds?.kind === 'shape' ? names.result : null,
      access: operation.access,
      rate: operation.rate,
    }
  })
  return {
    ...header,
    version: version.name,
    tables: operations.some((operation) => operation.target !== null || operation.record !== null),
    translations: [...used].map((resource) => ({ alias: translationAlias(resource), fileName: resource })),
    operations,
  }
}

/** `orders` → `ordersTranslation`: the import of a resource's translate/ module. */
function translationAlias(resource: string): string {
  const camel = resource.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase())
  return `${camel}Translation`
}

function buildTypesView(model: ApiModel, { header, version, member }: OperationsTarget): OperationTypesView {
  const records = new Map<string, string>()
  const input = (fields: readonly FieldModel[]) => fields.map((field) => member(field, !field.required, field.nullable))
  const operations = version.operations.map((operation) => {
    const { responds } = operation
    let responseType: string | null = null
    if (responds?.kind === 'record') {
      const resource = findResource(model, responds.resource)
      records.set(resource.typeName, resource.name)
      responseType = resource.typeName
    } else if (responds?.kind === 'shape') {
      responseType = `${operation.typeName}Result`
    }
    return {
      handler: operation.handler,
      method: operation.method,
      path: `${version.prefix}${operation.path}`,
      params: operation.idParam === null ? [] : [operation.idParam],
      body: operation.body === null ? null : { name: `${operation.typeName}Body`, members: input(operation.body) },
      query:
        operation.query.length === 0 ? null : { name: `${operation.typeName}Query`, members: input(operation.query) },
      result:
        responds?.kind === 'shape'
          ? {
              name: `${operation.typeName}Result`,
              members: responds.fields.map((field) => member(field, false, field.storedNullable)),
              many: responds.many,
            }
          : null,
      responseType,
      responseMany: responds?.kind === 'shape' && responds.many,
    }
  })
  return {
    ...header,
    records: [...records].map(([typeName, fileName]) => ({ typeName, fileName })),
    operations,
  }
}
