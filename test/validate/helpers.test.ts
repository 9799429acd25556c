import { describe, expect, it } from 'vitest'
import { didYouMean } from '../../generator/diagnostics/did-you-mean.js'
import { singularOf } from '../../generator/names/derive-names.js'

describe('didYouMean', () => {
  it.each([
    ['requird', ['type', 'required', 'nullable'], 'required'],
    ['reqiured', ['type', 'required'], 'required'],
    ['Required', ['required'], 'required'],
    ['minLength', ['min_length', 'max_length'], 'min_length'],
    ['max-length', ['min_length', 'max_length'], 'max_length'],
    ['resource', ['restmint', 'resources'], 'resources'],
    ['typ', ['type', 'enum'], 'type'],
    ['tp', ['type'], null],
    ['colour', ['type', 'required'], null],
    ['order', ['orders', 'order-items'], 'orders'],
  ])('%j among %j → %j', (input, candidates, expected) => {
    expect(didYouMean(input, candidates)).toBe(expected)
  })
})

describe('singularOf', () => {
  it.each([
    ['orders', undefined, 'order'],
    ['order-items', undefined, 'order-item'],
    ['categories', undefined, 'category'],
    ['people', undefined, 'person'],
    ['news', undefined, 'news'],
    ['data', 'datum', 'datum'],
    ['corpora', 'corpus', 'corpus'],
  ])('%j (singular: %j) → %j', (name, declared, expected) => {
    expect(singularOf(name, declared)).toBe(expected)
  })
})
