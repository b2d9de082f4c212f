import { Global, Logger, Module } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.schema.js';
import { loadKeyRing } from './key-ring.js';
import { SecretBox } from './secret-box.js';

@Global()
@Module({
  providers: [
    {
      provide: SecretBox,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => {
        const { ring, generatedFile } = loadKeyRing(config);
        if (generatedFile) {
          new Logger('SecretBox').warn(
            `Generated an encryption key for connection passwords at ${generatedFile} (mode 0600). ` +
              'Back it up: without it the stored passwords cannot be opened. Set MASTER_ENCRYPTION_KEY to manage the key yourself.',
          );
        }
        return new SecretBox(ring);
      },
    },
  ],
  exports: [SecretBox],
})
export class CryptoModule {}
