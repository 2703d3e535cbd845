/** The resources page's markdown: the shared safe renderer of src/http/markdown.ts (the daemon's IDE uses it too). */
export {renderMarkdown, type RenderedMarkdown} from '../../../http/markdown.js'
