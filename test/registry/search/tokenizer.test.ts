import {describe, expect, it} from 'vitest'
import {stem, tokenize} from '../../../src/registry/search/tokenizer.js'

describe('tokenize', () => {
  it('lowercases, splits on punctuation and drops stop words', () => {
    expect(tokenize('I need an agent that can generate Images, from text!')).toEqual(['agent', 'generat', 'imag', 'text'])
  })

  it('keeps stop words when asked (names, tags)', () => {
    expect(tokenize('The Can Do Agent', {keepStopWords: true})).toEqual(['the', 'can', 'do', 'agent'])
  })

  it('folds accents and full-width forms', () => {
    expect(tokenize('Café Résumé')).toEqual(tokenize('cafe resume'))
    expect(tokenize('ＡＢＣ１２３')).toEqual(['abc123'])
  })

  it('splits dotted and kebab categories into parts', () => {
    expect(tokenize('media.image-generation')).toEqual(['media', 'imag', 'generat'])
  })

  it('cuts CJK runs into bigrams and splits mixed scripts', () => {
    expect(tokenize('日本語')).toEqual(['日本', '本語'])
    expect(tokenize('画像generation')).toEqual(['画像', 'generat'])
    expect(tokenize('한국어 번역')).toEqual(['한국', '국어', '번역'])
    expect(tokenize('猫')).toEqual(['猫'])
  })

  it('keeps other scripts as words', () => {
    expect(tokenize('Перевод текста')).toEqual(['перевод', 'текста'])
  })

  it('returns nothing for empty or punctuation-only text', () => {
    expect(tokenize('')).toEqual([])
    expect(tokenize(' ... --- ')).toEqual([])
  })
})

describe('stem', () => {
  it.each([
    ['images', 'imag'], ['image', 'imag'], ['imaging', 'imag'],
    ['queries', 'query'], ['query', 'query'],
    ['searches', 'search'], ['search', 'search'], ['boxes', 'box'],
    ['translation', 'translat'], ['translations', 'translat'], ['translate', 'translat'], ['translated', 'translat'],
    ['summarization', 'summariz'], ['summarize', 'summariz'], ['summarizing', 'summariz'],
    ['running', 'run'], ['class', 'class'], ['status', 'status'], ['analysis', 'analysis'],
    ['gpt4', 'gpt4'], ['pdf', 'pdf'],
  ])('%s → %s', (word, expected) => {
    expect(stem(word)).toBe(expected)
  })
})
