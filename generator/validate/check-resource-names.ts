import { singularOf } from '../names/derive-names.js'
import { asRecord } from '../manifest/as-record.js'
import type { CheckContext } from './check-context.js'
import { describeValue } from './describe-value.js'
import { explainUnsafeName } from './explain-unsafe-name.js'
import { findCaseProblem, splitWords } from './find-case-problem.js'
import { findResourceNameProblem } from './find-resource-name-problem.js'

/**
 * Naming rules for resource names (at their key) and declared singulars (at
 * their value), and SINGULAR_COLLISION between resources.
 */
export function checkResourceNames(context: CheckContext, data: unknown): void {
  const resources = asRecord(asRecord(data)?.resources)
  if (resources === null) return
  const singulars = new Map<string, string>()
  for (const [name, value] of Object.entries(resources)) {
    const declared = asRecord(value)?.singular
    const singular = typeof declared === 'string' ? declared : undefined
    const problem = findResourceNameProblem(name, singular !== undefined)
    if (problem !== null) context.report(problem.code, problem.message, context.atKey(['resources', name]))
    const singularIsValid = singular === undefined || checkDeclaredSingular(context, name, singular)
    if (problem !== null || !singularIsValid) continue
    const effective = singularOf(name, singular)
    const other = singulars.get(effective)
    if (other === undefined) {
      singulars.set(effective, name)
      continue
    }
    const at =
      singular === undefined ? context.atKey(['resources', name]) : context.atValue(['resources', name, 'singular'])
    context.report(
      'SINGULAR_COLLISION',
      `resources "${other}" and "${name}" have the same singular "${effective}", which names each one's TypeScript type and foreign keys; declare a different singular: for one of them`,
      at,
    )
  }
}

/** Reports a declared singular that is not a safe lowercase hyphenated name; true when it is one. */
function checkDeclaredSingular(context: CheckContext, resource: string, singular: string): boolean {
  const at = context.atValue(['resources', resource, 'singular'])
  const label = `singular ${describeValue(singular)} of resource ${describeValue(resource)}`
  const unsafe = explainUnsafeName(singular, 'singular')
  if (unsafe !== null) {
    context.report('UNSAFE_NAME', `${label} ${unsafe}`, at)
    return false
  }
  const caseProblem = findCaseProblem(singular, '-')
  if (caseProblem === null) return true
  const fix = `did you mean "${splitWords(singular).join('-')}"?`
  if (caseProblem === 'case') context.report('NAMING_LOWERCASE', `${label} must be entirely lowercase; ${fix}`, at)
  else
    context.report(
      'NAMING_HYPHENS',
      `${label} must separate its words with single hyphens, not underscores, spaces or camelCase; ${fix}`,
      at,
    )
  return false
}
