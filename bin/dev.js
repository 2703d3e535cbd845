#!/usr/bin/env node
// Development entry point: same as run.js, flagged as development for oclif's error output.
import {execute} from '@oclif/core'

await execute({development: true, dir: import.meta.url})
