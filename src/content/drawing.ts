// The content script's drawing on the page, imported by the declared script (index.ts) only when
// there is something to draw: a notice, what is new, link marks (see handoff.ts).
import { offerDrawing } from './handoff';
import { startLinkMarks } from './link-marks';
import { focusNotice, removeNotice, showNotice } from './notice';
import { showNewParts } from './whats-new';

offerDrawing({ showNotice, removeNotice, focusNotice, showNewParts, startLinkMarks });
