import {Box, Text} from 'ink'
import type {EditorState} from './line-editor.js'

/** The input line with a visible cursor; a hint while empty. */
export function InputLine({editor, active}: {editor: EditorState; active: boolean}) {
  const {value, cursor} = editor
  if (value === '') {
    return (
      <Box>
        <Text color="cyan">› </Text>
        <Text inverse={active}> </Text>
        <Text color="gray"> type to broadcast · /msg &lt;handle&gt; &lt;text&gt; · /help · /quit</Text>
      </Box>
    )
  }
  return (
    <Box>
      <Text color="cyan">› </Text>
      <Text wrap="truncate-start">
        {value.slice(0, cursor)}
        <Text inverse={active}>{value[cursor] ?? ' '}</Text>
        {value.slice(cursor + 1)}
      </Text>
    </Box>
  )
}
