/**
 * Thrown while encoding a value the storage refuses to bind; the storage turns
 * it into InvalidValueError naming the table and column. `reason` completes a
 * sentence starting with the field name. A TypeError, as these used to be.
 */
export class RejectedValue extends TypeError {
  constructor(readonly reason: string) {
    super(reason)
    this.name = 'RejectedValue'
  }
}
