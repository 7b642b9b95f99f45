import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { SecretBox } from './secret-box.js';

@Global()
@Module({
  providers: [
    {
      provide: SecretBox,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new SecretBox(config.encryption.currentKeyId, config.encryption.keys),
    },
  ],
  exports: [SecretBox],
})
export class CryptoModule {}
