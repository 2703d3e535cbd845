/**
 * The dialog a task opens in, in every view: `task-dialog.js` fills it with
 * `GET /ide/tasks/<id>` when a `[data-open]` button is pressed (or the
 * board's keyboard asks).
 */
import {html} from '../../http/html.js'

export const TASK_DIALOG = html`<dialog id="task-dialog" aria-labelledby="task-dialog-title">
<div class="dialog-head"><h2 id="task-dialog-title">Task</h2><button type="button" class="quiet" data-close>Close</button></div>
<div class="dialog-body" id="task-dialog-body"></div>
</dialog>`
