import { DistributedCheerioError } from './distributed-cheerio-error.js';

/** A resumed queue's served folder must be served at its first origin again, and that port is taken now. */
export class ServedPortInUseError extends DistributedCheerioError {
  /**
   * @param queueName - the queue
   * @param origin - the origin its requests point at
   */
  constructor(queueName: string, origin: string, options?: ErrorOptions) {
    super(
      'E_SERVED_PORT_IN_USE',
      `queue ${queueName} holds requests for ${origin} (the folder its first run served), but that port is in use now. ` +
        'Stop what listens there (another run of this example?) and rerun, or pick a new --queue.',
      options,
    );
  }
}
