import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { categoriesTable, postsTable } from '../fixtures/shop-api/generated/schema.js'
import type { ColumnValue, SortKey } from '../../runtime/index.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'

/**
 * Keyset positions holding NULL where every key sorts descending (issue #6,
 * item 1): nothing sorts after them, so the page is empty — once the SQL held
 * an empty condition `()` and the database refused it.
 */
for (const dialect of DIALECTS) {
  describe(`${dialect}: keyset positions of NULLs`, () => {
    let storage: TestStorage

    beforeAll(async () => {
      storage = await openTestStorage(dialect)
      await storage.storage.prepare()
      const category = await storage.storage.insert(categoriesTable, { name: 'News' })
      for (const price of [null, 1, null, 2]) {
        await storage.storage.insert(postsTable, {
          title: `costs ${price}`,
          body: null,
          price,
          status: 'draft',
          published_at: null,
          author_id: null,
          category_id: category.id!,
        })
      }
    })
    afterAll(() => storage.dispose())

    const list = (sort: SortKey[], after: ColumnValue[]) =>
      storage.storage.list(postsTable, { rowFilter: {}, sort, after, limit: 10, count: 'none' })

    it('answers an empty page when every descending key is NULL', async () => {
      expect((await list([{ column: 'id', direction: 'desc' }], [null, null])).rows).toEqual([])
      expect((await list([{ column: 'price', direction: 'desc' }], [null, null])).rows).toEqual([])
    })

    it('continues after a NULL on a descending key with the rows after it among the NULLs', async () => {
      const all = (
        await storage.storage.list(postsTable, {
          rowFilter: {},
          sort: [{ column: 'price', direction: 'desc' }],
          limit: 10,
          count: 'none',
        })
      ).rows
      expect(all.map((row) => row.price)).toEqual([2, 1, null, null])
      const after = await list([{ column: 'price', direction: 'desc' }], [null, all[2]!.id!])
      expect(after.rows.map((row) => row.id)).toEqual([all[3]!.id])
    })
  })
}
