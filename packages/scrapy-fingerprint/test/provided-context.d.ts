// Types of what the test-utils globalSetup provides (`inject('redisUrl')`).
import type {} from '@crawlee-distributed/test-utils/global-setup';
