/** A PublicCard that passes every rule of lintCard, and helpers to break it one rule at a time. */
import {lamportsPricing, publicCard} from '../../support/agent-card.js'

export function goodCard(): Record<string, any> {
  return publicCard({
    name: 'Translator',
    url: 'https://translator.example',
    version: '1.2.0',
    description: 'Translates short texts between 40 languages.',
    protocols: ['http', 'x402'],
    skills: [
      {
        id: 'translate-text',
        name: 'Translate text',
        description:
          'Use it when you need a text in another language. Takes text (1 to 5,000 characters) and target, a language code such as "fr". Returns {translation, detected_source}. Answers in about 2 s. Free.',
        examples: ['Translate "good morning" into French.', '{"text": "good morning", "target": "fr"}'],
        inputSchema: {
          type: 'object',
          required: ['text', 'target'],
          properties: {text: {type: 'string', minLength: 1, maxLength: 5000}, target: {type: 'string', pattern: '^[a-z]{2}$'}},
        },
        outputSchema: {
          type: 'object',
          properties: {translation: {type: 'string'}, detected_source: {type: 'string'}, alternatives: {type: 'array', items: {type: 'object', properties: {text: {type: 'string'}}}}},
        },
        returns: ['translation', 'alternatives[0].text'],
      },
      {
        id: 'detect-language',
        name: 'Detect language',
        description:
          'Use it when you do not know which language a text is in. Takes text (1 to 1,000 characters). Returns {language, confidence}. Answers in under 300 ms. Costs 5000 lamports per call; the first 10 calls per day are free.',
        examples: ['Which language is "buenos días"?', '{"text": "buenos días"}', '{"text": "guten Tag"}'],
        input_schema: {type: 'object', required: ['text'], properties: {text: {type: 'string'}}},
        pricing: lamportsPricing(5000),
      },
    ],
    contact: {http: 'https://translator.example/v1'},
    'x-owner-note': 'unknown keys are ignored',
  })
}
