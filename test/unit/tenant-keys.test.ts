import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { paymentDestinationEntity } from '../../lib/beneficiaries/repo.ts';
import { itemOf } from '../../lib/db/entity.ts';
import { tenantScope } from '../../lib/db/keys.ts';
import { walletEntity } from '../../lib/wallets/repo.ts';

const tenant = { environment: 'sandbox' as const, associationId: 'a1' };
const owned = { ...tenant, createdAt: '', updatedAt: '' };

describe('tenant-owned items', () => {
  it('carry the tenant scope in the key and in every tenant-facing index key', () => {
    const items = [
      itemOf(walletEntity, { ...owned, walletId: 'w1' } as never),
      itemOf(paymentDestinationEntity, { ...owned, beneficiaryId: 'b1', destinationId: 'd1' } as never),
    ];
    for (const item of items) {
      assert.equal(item.pk, tenantScope(tenant));
      if ('gsi1pk' in item) assert.equal(item.gsi1pk, tenantScope(tenant));
    }
    assert.equal(items[1]?.gsi1sk, 'PAYDEST#d1');
  });

  it('are found by id alone only on the platform index (gsi2)', () => {
    assert.deepEqual(
      Object.keys(itemOf(walletEntity, { ...owned, walletId: 'w1' } as never)).filter((k) =>
        k.startsWith('gsi'),
      ),
      ['gsi2pk', 'gsi2sk'],
    );
  });
});
