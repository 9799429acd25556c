import { posix } from 'node:path'
import { stringify as stringifyYaml } from 'yaml'
import {
  type ApiModel,
  type FieldModel,
  type ResourceModel,
  type StorageMapping,
  type VersionModel,
  findResource,
} from '../model/api-model.js'
import {
  nameResourceComponents,
  migrationGuideName,
  routesFunctionName,
  TABLE_LIST_NAME,
  tableConstantName,
  versionFunctionName,
} from '../names/generated-names.js'
import { buildOpenApiDocument } from './openapi-document.js'
import { doNotEditNotice } from '../emit/do-not-edit-notice.js'
import { shareQueryParameters } from './share-query-parameters.js'
import { buildLinkBodySchema, buildResourceSchemas, linkBodyName } from './json-schemas.js'
import { compileValidators } from './compile-validators.js'
import { hashKey, type ContentCache } from '../emit/content-cache.js'
import { loadTemplates, type RenderTemplate } from './load-templates.js'
import type {
  BodyValidatorsView,
  HeaderView,
  MemberView,
  RoutesView,
  SchemaView,
  ServerView,
  TypesView,
  VersionIndexView,
  StorageTable,
} from './template-views.js'
import { isIdentityMapping } from '../model/map-version-storage.js'
import { buildTranslateView } from './build-translate-view.js'
import { buildMigrationGuideView } from './build-migration-guide-view.js'
import { renderOperations } from './render-operations.js'
import yamlPackage from 'yaml/package.json' with { type: 'json' }

/** What rendering needs besides the model. */
export interface RenderOptions {
  /** The manifest's directory relative to the output directory (`..`): server.ts imports the app module through it. */
  readonly manifestFromOut?: string
}

/** Where the manifest is seen from the default output directory, `generated/` beside it. */
const DEFAULT_MANIFEST_FROM_OUT = '..'

/** Where renderers put each file they render. */
interface RenderedFiles {
  set(path: string, contents: string): void
}

/**
 * Renders every output file of a model, unformatted: relative path → contents.
 * Paths use `/` and are sorted, so output is deterministic. `onFile` hears
 * each file as soon as it is rendered, so formatting can start meanwhile.
 */
export function renderProject(
  model: ApiModel,
  cache: ContentCache,
  onFile?: (path: string, contents: string) => void,
  options: RenderOptions = {},
): Map<string, string> {
  const render = loadTemplates()
  const rendered = new Map<string, string>()
  const files: RenderedFiles = {
    set: (path, contents) => {
      rendered.set(path, contents)
      onFile?.(path, contents)
    },
  }
  const schema = buildSchemaView(model)
  const storageTables = new Map(schema.tables.map((table) => [table.resource, table]))
  files.set('schema.ts', render('schema.ts', schema))
  files.set(
    'server.ts',
    render('server.ts', buildServerView(model, options.manifestFromOut ?? DEFAULT_MANIFEST_FROM_OUT)),
  )
  for (const version of model.versions) {
    const versionModel = { ...model, resources: version.resources }
    if (version.storage) renderVersion(versionModel, version, version.storage, storageTables, render, cache, files)
    else renderVersionDocuments(versionModel, version, render, cache, files)
    const translated = version.storage !== null && !isIdentityMapping(version.storage, version)
    const target = { header: headerView(model), version, mappings: version.storage, translated, member }
    renderOperations(versionModel, target, render, cache, files)
  }
  for (const [older, newer] of listVersionPairs(model)) renderMigrationGuide(model, older, newer, render, files)
  return new Map([...rendered].sort(([a], [b]) => (a < b ? -1 : 1)))
}

/**
 * Everything a served version needs: its documents, routes and validators,
 * from `model`, whose resources are the version's. A version that differs
 * from the storage (`mappings`: how each resource reaches it) also gets its
 * translation, for every resource, since embedded records cross resources.
 */
function renderVersion(
  model: ApiModel,
  version: VersionModel,
  mappings: ReadonlyMap<string, StorageMapping>,
  storageTables: ReadonlyMap<string, StorageTable>,
  render: RenderTemplate,
  cache: ContentCache,
  files: RenderedFiles,
): void {
  const header = headerView(model)
  const dir = version.name
  const translated = !isIdentityMapping(mappings, version)
  files.set(`${dir}/index.ts`, render('version-index.ts', buildVersionIndexView(model, version)))
  renderVersionDocuments(model, version, render, cache, files)
  for (const resource of model.resources) {
    const types = buildTypesView(model, resource)
    const routes = buildRoutesView(model, resource, version, mappings, translated)
    files.set(`${dir}/routes/${resource.name}.ts`, render('routes.ts', routes))
    if (translated) {
      const translate = buildTranslateView(header, model, version, resource, mappings, storageTables)
      files.set(`${dir}/translate/${resource.name}.ts`, render('translate.ts', translate))
    }
    const schemas = buildResourceSchemas(resource, model)
    const bodies = new Map<string, object>([
      ['createBody', schemas.createBody],
      ['replaceBody', schemas.replaceBody],
      ['updateBody', schemas.updateBody],
    ])
    if (schemas.nestedCreateBody && schemas.nestedReplaceBody && schemas.nestedUpdateBody) {
      bodies.set('nestedCreateBody', schemas.nestedCreateBody)
      bodies.set('nestedReplaceBody', schemas.nestedReplaceBody)
      bodies.set('nestedUpdateBody', schemas.nestedUpdateBody)
    }
    const links = translated ? [] : resource.relations.filter((relation) => relation.through !== null)
    for (const relation of links) bodies.set(linkBodyName(relation), buildLinkBodySchema(relation, model))
    const validators = `${dir}/validators/${resource.name}`
    const compiled = compileValidators(bodies, cache)
    files.set(
      `${validators}-bodies.js`,
      render('validators.js', { ...header, code: compiled.code, aliases: compiled.aliases }),
    )
    files.set(
      `${validators}-bodies.d.ts`,
      render('body-validators.d.ts', { ...buildBodyValidatorsView(types, resource), links: links.map(linkBodyName) }),
    )
  }
}

/** What describes a version to clients: its OpenAPI document and its types, from `model`, whose resources are the version's. */
function renderVersionDocuments(
  model: ApiModel,
  version: VersionModel,
  render: RenderTemplate,
  cache: ContentCache,
  files: RenderedFiles,
): void {
  const header = headerView(model)
  const document = {
    'x-generated': header.notice,
    ...shareQueryParameters(buildOpenApiDocument(model, version), model),
  }
  files.set(`${version.name}/openapi.json`, JSON.stringify(document))
  if (model.openapiYaml) files.set(`${version.name}/openapi.yaml`, `# ${header.notice}\n${toYaml(document, cache)}`)
  for (const resource of model.resources) {
    files.set(`${version.name}/types/${resource.name}.ts`, render('types.ts', buildTypesView(model, resource)))
  }
}

/** Each version with the next one, oldest first. */
function listVersionPairs(model: ApiModel): [VersionModel, VersionModel][] {
  return model.versions.slice(1).map((newer, index) => [model.versions[index]!, newer])
}

/** `docs/migrate-<older>-to-<newer>.md`, and the same guide as the HTML page the server sends. */
function renderMigrationGuide(
  model: ApiModel,
  older: VersionModel,
  newer: VersionModel,
  render: RenderTemplate,
  files: RenderedFiles,
): void {
  const view = buildMigrationGuideView(headerView(model), model, older, newer)
  const name = migrationGuideName(older.name, newer.name)
  files.set(`docs/${name}.md`, render('migration-guide.md', view))
  const html = render('migration-guide.html', view)
  files.set(
    `docs/${name}.ts`,
    render('migration-guide-page.ts', { notice: view.notice, older: older.name, newer: newer.name, html }),
  )
}

function headerView(model: ApiModel): HeaderView {
  return { notice: doNotEditNotice(model.manifestFile) }
}

function buildSchemaView(model: ApiModel): SchemaView {
  return {
    ...headerView(model),
    listName: TABLE_LIST_NAME,
    tables: model.resources.map((resource) => ({
      constant: tableConstantName(resource.identifier),
      resource: resource.name,
      definition: resource.definition,
    })),
  }
}

function buildServerView(model: ApiModel, manifestFromOut: string): ServerView {
  const newest = model.versions.at(-1)!
  return {
    ...headerView(model),
    manifestFile: model.manifestFile,
    title: model.service.title,
    limits: model.limits,
    rate: model.rate,
    http: model.runtime.http,
    tableList: TABLE_LIST_NAME,
    versions: model.versions
      .filter((version) => version.storage !== null)
      .map((version) => ({
        name: version.name,
        prefix: version.prefix,
        functionName: versionFunctionName(version.name),
        deprecation: version.deprecation,
        access: version.access,
        operations: version.operations.length > 0 ? `operations${version.name.toUpperCase()}` : null,
      })),
    unserved: model.versions.filter((version) => version.storage === null).map((version) => version.name),
    guides: listVersionPairs(model).map(([older, newer]) => {
      const name = migrationGuideName(older.name, newer.name)
      return { path: `/docs/${name}`, fileName: name }
    }),
    auth: model.runtime.auth,
    newestVersion: newest.name,
    apiTypes: newest.resources.map((resource) => {
      const types = nameResourceComponents(resource.typeName)
      return {
        resource: resource.name,
        namespace: `${resource.identifier}Types`,
        fileName: resource.name,
        record: types.record,
        create: types.create,
        update: types.update,
      }
    }),
    appImport: model.appModule === null ? null : appModuleImport(model.appModule, manifestFromOut),
    apiOperations: newest.operations.length > 0,
    hooks: Object.keys(model.hooks).length > 0 ? model.hooks : null,
    computed: Object.keys(model.computed).length > 0 ? model.computed : null,
  }
}

/**
 * The app module's specifier as server.ts imports it: relative to the output
 * directory, with TypeScript's extension swapped for the one it compiles to
 * (TypeScript and esbuild resolve `./app.js` to `./app.ts`).
 */
function appModuleImport(appModule: string, manifestFromOut: string): string {
  const path = posix.join(manifestFromOut, appModule)
  const specifier = path.startsWith('.') ? path : `./${path}`
  return specifier.replace(/\.ts$/, '.js').replace(/\.mts$/, '.mjs')
}

function buildVersionIndexView(model: ApiModel, version: VersionModel): VersionIndexView {
  return {
    ...headerView(model),
    version: version.name,
    functionName: versionFunctionName(version.name),
    resources: model.resources.map((resource) => ({
      fileName: resource.name,
      functionName: routesFunctionName(resource.typeName),
    })),
  }
}

/**
 * What routes.ts.hbs declares for registerResource: the storage's table, the
 * version's rules and, when nested, the parent's table (and the parent's
 * names in the version, when the storage's differ).
 */
function buildRoutesView(
  model: ApiModel,
  resource: ResourceModel,
  version: VersionModel,
  mappings: ReadonlyMap<string, StorageMapping>,
  translated: boolean,
): RoutesView {
  const nested = resource.routes.find((route) => route.nestedUnder !== null)?.nestedUnder ?? null
  const storageOf = (name: string) => mappings.get(name)!.storage
  const parent = nested && findResource(model, nested.parentResource)
  const parentStorage = parent && storageOf(parent.name)
  return {
    ...headerView(model),
    resource: resource.name,
    fileName: resource.name,
    functionName: routesFunctionName(resource.typeName),
    table: tableConstantName(storageOf(resource.name).identifier),
    rules: resource.queryRules,
    paths: resource.routes.map((route) => `${version.prefix}${route.path}`),
    nestedUnder: nested &&
      parent &&
      parentStorage && {
        parentTable: tableConstantName(parentStorage.identifier),
        parentKey: nested.parentKey,
        idParam: nested.idParam,
        parentNames:
          parentStorage.name === parent.name && parentStorage.singular === parent.singular
            ? null
            : { resource: parent.name, singular: parent.singular },
      },
    translated,
    requireIfMatch: resource.requireIfMatch,
    rate: resource.rate,
    // An older version that translates names serves no link routes (its join may be named otherwise).
    links: translated
      ? []
      : resource.relations.flatMap((relation) =>
          relation.through === null
            ? []
            : [
                {
                  relation: relation.name,
                  body: linkBodyName(relation),
                  rules: findResource(model, relation.resource).queryRules,
                },
              ],
        ),
  }
}

const PRIMITIVES: Readonly<Record<FieldModel['type'], string>> = {
  string: 'string',
  integer: 'number',
  number: 'number',
  boolean: 'boolean',
  date: 'string',
  datetime: 'string',
  // Exact: never a JS number.
  decimal: 'string',
  json: 'unknown',
  array: 'unknown',
}

function member(field: FieldModel, optional: boolean, nullable: boolean): MemberView {
  return {
    name: field.name,
    readOnly: field.serverManaged,
    optional,
    primitive: field.enum === null ? PRIMITIVES[field.type] : null,
    enumValues: field.enum,
    nullable,
    document: documentSchemaOf(field),
  }
}

/** The JSON Schema a json or array field's TypeScript type is written from (tsType); null for other fields. */
function documentSchemaOf(field: FieldModel): unknown {
  if (field.type === 'json') return field.jsonSchema ?? true
  if (field.type !== 'array') return null
  const items = field.items
  if (items === undefined) return { type: 'array' }
  return { type: 'array', items: items.enum === null ? { type: PRIMITIVES[items.type] } : { enum: items.enum } }
}

/**
 * What types.ts.hbs writes: the type names and, per interface, its members.
 * Records show every field (nullable when NULL may be stored); create bodies
 * the writable ones (optional unless required); update bodies the writable
 * ones, all optional. Nested bodies leave out the parent key, which comes
 * from the path. Every interface is spelled out, so no global generic
 * (`Partial`, `Omit`) is needed, which a resource named `partials` or `omits`
 * would shadow.
 */
function buildTypesView(model: ApiModel, resource: ResourceModel): TypesView {
  const writable = resource.fields.filter((field) => !field.serverManaged)
  const create = (fields: readonly FieldModel[]) =>
    fields.map((field) => member(field, !field.required, field.nullable))
  const update = (fields: readonly FieldModel[]) => fields.map((field) => member(field, true, field.nullable))
  const parent = resource.parent
  const nestedWritable = writable.filter((field) => field.name !== parent?.foreignKey)
  const nestedRoutes = resource.routes.filter((route) => route.nestedUnder !== null)
  return {
    ...headerView(model),
    resource: resource.name,
    types: nameResourceComponents(resource.typeName),
    record: [
      ...resource.fields.map((field) => member(field, false, field.storedNullable)),
      ...resource.computed.map((field) => ({
        name: field.name,
        readOnly: true,
        optional: false,
        primitive: PRIMITIVES[field.type],
        enumValues: null,
        nullable: field.nullable,
        document: null,
      })),
    ],
    create: create(writable),
    update: update(writable),
    nested: parent && {
      parentResource: parent.resource,
      parentKey: parent.foreignKey,
      collectionPath: nestedRoutes.find((route) => route.kind === 'collection')?.path ?? '',
      itemPath: nestedRoutes.find((route) => route.kind === 'item')?.path ?? '',
      create: create(nestedWritable),
      update: update(nestedWritable),
    },
  }
}

/** What body-validators.d.ts.hbs declares: the validators, typed by the interfaces of the resource's types file. */
function buildBodyValidatorsView(types: TypesView, resource: ResourceModel): BodyValidatorsView {
  return {
    notice: types.notice,
    fileName: resource.name,
    types: types.types,
    nested: types.nested && { parentResource: types.nested.parentResource, parentKey: types.nested.parentKey },
  }
}

/** YAML of a large OpenAPI document costs ~0.5 s for 100 resources; reuse it while the document is unchanged. */
function toYaml(document: object, cache: ContentCache): string {
  const options = { aliasDuplicateObjects: false, lineWidth: 0 }
  const key = hashKey('yaml', yamlPackage.version, JSON.stringify(options), JSON.stringify(document))
  const cached = cache.read(key)
  if (cached !== null) return cached
  const yaml = stringifyYaml(document, options)
  cache.write(key, yaml)
  return yaml
}
