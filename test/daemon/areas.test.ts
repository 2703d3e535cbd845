import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {LAZY_AREAS} from '../../src/daemon/areas.js'
import {createDaemon, type Daemon} from '../../src/daemon/daemon.js'
import type {DaemonArea} from '../../src/daemon/area.js'
import {checkDeclared, lazyArea, type DeclaredRoute} from '../../src/daemon/lazy-area.js'
import {makeRepo} from '../standard/fixtures.js'

let daemon: Daemon

beforeAll(async () => {
  daemon = await createDaemon({root: makeRepo().root, areas: []})
})

afterAll(async () => {
  await daemon.service.close()
})

const request = {params: {}, query: {}, headers: {}, body: async () => ({})}

describe('areas loaded on their first request', () => {
  it.each(Object.entries(LAZY_AREAS))('%s: the routes declared in areas.ts are the area’s own, and it is routes alone', async (_name, {routes, load}) => {
    const area = (await load())(daemon.context)
    expect(() => checkDeclared(area, routes)).not.toThrow()
  })

  it('imports the area at the first request, once, and answers with its handler', async () => {
    let loads = 0
    const declared: DeclaredRoute[] = [{method: 'GET', path: '/a', auth: 'none'}, {method: 'POST', path: '/b', auth: 'portal'}]
    const real: DaemonArea = {name: 'x', routes: [...declared.map((route) => ({...route, handle: () => `${route.method} ${route.path}`}))]}
    const area = lazyArea('x', declared, async () => {
      loads++
      return () => real
    })(daemon.context)
    expect(area.routes.map(({method, path, auth}) => ({method, path, auth}))).toEqual(declared)
    expect(loads).toBe(0)
    const answers = await Promise.all([area.routes[1].handle(request), area.routes[0].handle(request), area.routes[1].handle(request)])
    expect(answers).toEqual(['POST /b', 'GET /a', 'POST /b'])
    expect(loads).toBe(1)
  })

  it('refuses an area whose routes differ from the declaration, or that has work of its own', async () => {
    const declared: DeclaredRoute[] = [{method: 'GET', path: '/a', auth: 'none'}]
    const otherAuth = lazyArea('x', declared, async () => () => ({name: 'x', routes: [{method: 'GET', path: '/a', auth: 'portal', handle: () => 1}]}))(daemon.context)
    await expect(otherAuth.routes[0].handle(request)).rejects.toThrow(/not the ones declared/)
    const withStart = lazyArea('x', declared, async () => () => ({name: 'x', routes: [{...declared[0], handle: () => 1}], start: () => {}}))(daemon.context)
    await expect(withStart.routes[0].handle(request)).rejects.toThrow(/work of its own/)
  })
})
