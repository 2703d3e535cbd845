import {execFileSync} from 'node:child_process'
import {describe, expect, it} from 'vitest'
import {shellCommand} from '../../src/lib/shell-quote.js'

describe('shell quoting, read back by /bin/sh', () => {
  it('keeps each hostile word one argument for a real POSIX shell', () => {
    const words = ["it's", '$(touch /tmp/never)', '`id`', 'a b\tc\nd', '"; rm -rf /; "', "'", '\\', '*', '~', '!x', '#']
    const printed = execFileSync('/bin/sh', ['-c', `printf '%s\\0' ${shellCommand(words)}`], {encoding: 'utf8'})
    expect(printed.split('\0').slice(0, -1)).toEqual(words)
  })
})
