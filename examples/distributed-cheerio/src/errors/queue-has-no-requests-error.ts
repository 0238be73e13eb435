/** `--join` names a queue that does not exist in Redis or never received a request: nothing for workers to do. */
export class QueueHasNoRequestsError extends Error {
  readonly code = 'E_QUEUE_HAS_NO_REQUESTS';

  constructor(queueName: string, redisUrl: string) {
    super(`queue ${queueName} on ${redisUrl} has no requests: start the seeding machine first (without --join)`);
    this.name = 'QueueHasNoRequestsError';
  }
}
