// Synthetic but realistic agent cards and prompts for the search benchmark:
// dotted categories, tag words and descriptions built from the vocabulary of
// real agent directories (media, language, data, dev tools, finance…).

const CATEGORIES = [
  'media.image-generation', 'media.image-editing', 'media.video-generation', 'media.audio-transcription', 'media.speech-synthesis',
  'media.music', 'language.translation', 'language.summarization', 'language.grammar', 'language.chat', 'language.classification',
  'data.weather', 'data.finance', 'data.geocoding', 'data.scraping', 'data.enrichment', 'data.sports', 'data.news',
  'dev.code-review', 'dev.testing', 'dev.documentation', 'dev.security-scan', 'dev.sql', 'dev.devops',
  'vision.ocr', 'vision.object-detection', 'vision.face', 'vision.captioning', 'search.web', 'search.academic',
  'commerce.pricing', 'commerce.inventory', 'commerce.payments', 'travel.flights', 'travel.hotels', 'health.nutrition',
  'legal.contracts', 'hr.recruiting', 'marketing.copywriting', 'marketing.seo', 'education.tutoring', 'science.chemistry',
]

const VERBS = [
  'generate', 'create', 'edit', 'translate', 'summarize', 'classify', 'extract', 'detect', 'transcribe', 'convert', 'analyze',
  'review', 'test', 'scan', 'search', 'find', 'recommend', 'forecast', 'predict', 'monitor', 'validate', 'enrich', 'compare',
  'schedule', 'book', 'price', 'optimize', 'caption', 'tag', 'render', 'compose', 'answer', 'explain', 'grade', 'rewrite',
  'upscale', 'remove', 'redact', 'parse', 'index', 'track', 'estimate', 'verify', 'match', 'cluster', 'rank', 'draft',
]

const NOUNS = [
  'images', 'photos', 'logos', 'illustrations', 'videos', 'podcasts', 'audio', 'speech', 'voices', 'music', 'songs', 'text',
  'documents', 'contracts', 'invoices', 'receipts', 'emails', 'articles', 'papers', 'reports', 'code', 'repositories', 'tests',
  'queries', 'databases', 'spreadsheets', 'tables', 'charts', 'maps', 'addresses', 'places', 'routes', 'flights', 'hotels',
  'prices', 'stocks', 'crypto', 'currencies', 'weather', 'forecasts', 'news', 'headlines', 'tweets', 'reviews', 'products',
  'recipes', 'meals', 'calories', 'resumes', 'candidates', 'jobs', 'keywords', 'websites', 'pages', 'links', 'faces', 'objects',
  'labels', 'subtitles', 'captions', 'slides', 'diagrams', 'molecules', 'proteins', 'lessons', 'quizzes', 'essays', 'poems',
]

const ADJECTIVES = [
  'fast', 'accurate', 'multilingual', 'realtime', 'cheap', 'free', 'private', 'open-source', 'enterprise', 'scalable', 'secure',
  'high-resolution', 'lightweight', 'batch', 'streaming', 'structured', 'detailed', 'concise', 'creative', 'photorealistic',
  'historical', 'global', 'local', 'verified', 'automatic', 'custom', 'domain-specific', 'low-latency', 'reliable',
]

const LANGUAGES = ['english', 'french', 'german', 'spanish', 'japanese', 'chinese', 'arabic', 'portuguese', 'hindi', 'korean', 'italian', 'russian']

const FORMATS = [
  ['application/json'], ['text/plain', 'application/json'], ['image/png', 'image/jpeg'], ['image/*'], ['audio/mpeg', 'audio/wav'],
  ['application/pdf'], ['text/csv', 'application/json'], ['video/mp4'], ['text/markdown'], ['text/html'],
]

/** A seeded PRNG so every run indexes the same cards. */
export function prng(seed) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const pick = (random, list) => list[Math.floor(random() * list.length)]

/** The DiscoveryCard of synthetic agent number i. */
export function syntheticCard(random, i) {
  const category = pick(random, CATEGORIES)
  const verb = pick(random, VERBS)
  const noun = pick(random, NOUNS)
  const noun2 = pick(random, NOUNS)
  const adjective = pick(random, ADJECTIVES)
  const tags = [...new Set([verb, noun, category.split('.')[1], pick(random, ADJECTIVES), pick(random, NOUNS)])].slice(0, 5)
  const lang = random() < 0.3 ? ` Supports ${pick(random, LANGUAGES)} and ${pick(random, LANGUAGES)}.` : ''
  return {
    name: `${adjective[0].toUpperCase()}${adjective.slice(1)} ${noun} ${verb}er ${i}`,
    category,
    description:
      `A ${adjective} agent that can ${verb} ${noun} and ${pick(random, VERBS)} ${noun2} for ${pick(random, ADJECTIVES)} workflows. ` +
      `Send a JSON body with the ${noun} to ${verb}; answers in ${Math.floor(random() * 900) + 100} ms on average.${lang}`,
    tags,
    accepts: pick(random, FORMATS),
    produces: pick(random, FORMATS),
    protocols: ['http'],
    pricing: random() < 0.7 ? {unit: 'request', amount: 0, currency: 'free'} : {unit: 'request', amount: 5000, currency: 'lamports'},
    availability: {now: true},
  }
}

const PROMPTS = [
  (r) => `I need an agent that can ${pick(r, VERBS)} ${pick(r, NOUNS)}`,
  (r) => `${pick(r, VERBS)} my ${pick(r, NOUNS)} into ${pick(r, LANGUAGES)}`,
  (r) => `find a ${pick(r, ADJECTIVES)} service to ${pick(r, VERBS)} ${pick(r, NOUNS)} from ${pick(r, NOUNS)}`,
  (r) => `${pick(r, NOUNS)} ${pick(r, NOUNS)}`,
  (r) => `who can ${pick(r, VERBS)} ${pick(r, ADJECTIVES)} ${pick(r, NOUNS)} quickly and cheaply?`,
  (r) => `${pick(r, CATEGORIES).replace(/[.-]/g, ' ')}`,
  (r) => `please help me ${pick(r, VERBS)} the ${pick(r, NOUNS)} in this ${pick(r, NOUNS)} and then ${pick(r, VERBS)} the ${pick(r, NOUNS)}`,
  (r) => `agent`,
]

/** `count` natural-language prompts. */
export function syntheticPrompts(random, count) {
  return Array.from({length: count}, () => pick(random, PROMPTS)(random))
}
