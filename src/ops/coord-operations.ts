import { approvalList, approvalRequest, approvalResolve } from './approval-ops.js';
import { contextEvents } from './events-ops.js';
import {
  handoffCancel,
  handoffClaim,
  handoffComplete,
  handoffCreate,
  handoffHeartbeat,
  handoffList,
} from './handoff-ops.js';
import { contextPause, contextResume, objectiveEdit, objectiveList, objectiveSet } from './objective-ops.js';
import type { AnyOperation } from './registry.js';

/** The coordination operations (objectives, pause/resume, handoffs, approvals, events), in help order. */
export const COORD_OPERATIONS: AnyOperation[] = [
  objectiveSet,
  objectiveEdit,
  objectiveList,
  contextPause,
  contextResume,
  handoffCreate,
  handoffList,
  handoffClaim,
  handoffHeartbeat,
  handoffComplete,
  handoffCancel,
  approvalRequest,
  approvalList,
  approvalResolve,
  contextEvents,
];
