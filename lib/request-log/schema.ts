import { pageQueryShape } from '../http/pagination.ts';
import * as z from '../zod.ts';

export const requestLogQuery = z.strictObject(pageQueryShape);
