/** `crawlee-redis dead-letters <queue> --delete --id ...` named an id the queue has no dead letter for (a typo, or
 * another run requeued or deleted it already). Exit code 1; nothing was deleted, not even the ids that exist. */
export class DeadLetterNotFoundError extends Error {
  /** The asked-for ids with no dead letter. */
  readonly ids: readonly string[];

  /** @param queue - the queue name @param ids - the ids with no dead letter */
  constructor(queue: string, ids: readonly string[]) {
    const shown = ids.slice(0, 5).join(', ') + (ids.length > 5 ? `, and ${ids.length - 5} more` : '');
    super(`queue "${queue}" has no dead letter with id ${shown}; nothing was deleted. List them with \`crawlee-redis dead-letters ${queue}\`.`);
    this.name = 'DeadLetterNotFoundError';
    this.ids = ids;
  }
}
