/**
 * Thrown while encoding a value the storage refuses to bind; the storage turns
 * it into InvalidValueError naming the table and column. `reason` completes a
 * sentence starting with the field name. A TypeError: the value is of a kind
 * the column cannot hold.
 */
export class RejectedValue extends TypeError {
  constructor(readonly reason: string) {
    super(reason)
    this.name = 'RejectedValue'
  }
}
