#!/usr/bin/env bash
# The walkthrough (docs/walkthrough.md) as one script: what a new integrator does first, as the sandbox tenant
# `npm start` seeds (a business, so its off-ramp quotes are B2x). The tests run it too, so it stays
# true. It stops at the first unexpected HTTP status: curl --fail-with-body prints the problem body
# and exits non-zero.
#
#   npm start                      # in another terminal
#   bash examples/walkthrough.sh
#
# Needs bash, curl (7.76+) and Node (examples/json.mjs reads the JSON; jq -r reads the same paths).
# CREDENTIALS=<file> reads another credentials file (the members of .local/credentials.json);
# BASE_URL=<…/v1> and HORIZON_URL=<url> override its baseUrl and horizonUrl.
set -euo pipefail
trap 'echo "walkthrough.sh: failed at line $LINENO: $BASH_COMMAND" >&2' ERR

here=$(dirname "$0")
json() { node "$here/json.mjs" "$@"; }
# Labels what it reads: `… | says 'P2P status'` prints `P2P status: completed`.
says() { printf '%s: %s\n' "$1" "$(cat)"; }
step() { printf '\n== %s\n' "$*"; }

C=${CREDENTIALS:-$here/../.local/credentials.json}
if [[ ! -f $C ]]; then
  echo "No $C: start the local stack with \`npm start\` first (it writes the credentials)." >&2
  exit 1
fi
B=${BASE_URL:-$(json .baseUrl < "$C")}
HORIZON=${HORIZON_URL:-$(json .horizonUrl < "$C")}
KEY=$(json .apiKey < "$C")

step 'Token: POST /auth/token with the API key and the client credentials'
CLIENT=$(printf '{"clientId":"%s","clientSecret":"%s"}' "$(json .clientId < "$C")" "$(json .clientSecret < "$C")")
TOKEN=$(curl -sS --fail-with-body -X POST "$B/auth/token" \
  -H "x-service-auth: $KEY" -H 'content-type: application/json' -d "$CLIENT" | json .accessToken)
echo "token: ${TOKEN:0:24}…"
# Every other call: the key, the token, JSON.
A=(-sS --fail-with-body -H "x-service-auth: $KEY" -H "Authorization: Bearer $TOKEN" -H 'content-type: application/json')

step 'Assets of the sandbox registry'
curl "${A[@]}" "$B/assets" | json .data | says 'assets'

step 'Wallets: an own wallet, and a third-party one whose KYC the sandbox helper settles'
OWN=$(curl "${A[@]}" -X POST "$B/wallets" \
  -d '{"walletName":"Treasury","assetCode":"USDC","ownAccount":true}' | json .id)
TP=$(curl "${A[@]}" -X POST "$B/wallets" \
  -d '{"walletName":"Supplier","assetCode":"USDC","metadata":{"entityType":"Business","registeredName":"Acme","registrationNumber":"123","registrationCountry":"ke"}}' | json .id)
echo "wallets: own $OWN, third-party $TP"
curl "${A[@]}" -X POST "$B/sandbox/wallets/$TP/kyc" -d '{"decision":"Verified"}' | json .status | says 'third-party wallet status'
# No need to wait for activation: the helper waits for the wallet's ledger account to open.
curl "${A[@]}" -X POST "$B/sandbox/wallets/$OWN/fund" -d '{"assetCode":"USDC","amount":1000}' | json .stellarTxHash | says 'funding stellarTxHash'

step 'Balances: the API, then the ledger’s own view of the same account'
curl "${A[@]}" "$B/wallets/$OWN" | json .balances | says 'own wallet balances (API)'
PUBLIC_KEY=$(curl "${A[@]}" "$B/wallets/$OWN" | json .publicKey)
curl -sS --fail-with-body "$HORIZON/accounts/$PUBLIC_KEY" | json .balances | says 'own wallet balances (ledger)'

step 'Beneficiaries with BANK, MOBILE_MONEY and CRYPTO payment destinations'
THANDI=$(curl "${A[@]}" -X POST "$B/beneficiaries" \
  -d '{"individual":{"firstName":"Thandi","lastName":"Nkosi","mobile":"+27821234567"}}' | json .id)
BANK=$(curl "${A[@]}" -X POST "$B/beneficiaries/$THANDI/payment-destinations" \
  -d '{"method":"BANK","countryIsoCode2":"ZA","currencyIsoCode3":"ZAR","accountNumber":"123456789","bankCode":"250655","accountHolderName":"Thandi Nkosi"}' | json .id)
MOMO=$(curl "${A[@]}" -X POST "$B/beneficiaries/$THANDI/payment-destinations" \
  -d '{"method":"MOBILE_MONEY","countryIsoCode2":"KE","currencyIsoCode3":"KES","mobileNumber":"+254712345678","provider":"MPESA"}' | json .id)
curl "${A[@]}" -X POST "$B/sandbox/payment-destinations/$BANK/verification" -d '{"decision":"APPROVED"}' | json .verificationStatus | says 'BANK destination verificationStatus'
ACME=$(curl "${A[@]}" -X POST "$B/beneficiaries" -d '{"business":{"registeredName":"Acme Trading"}}' | json .id)
curl "${A[@]}" -X POST "$B/beneficiaries/$ACME/payment-destinations" \
  -d "{\"method\":\"CRYPTO\",\"countryIsoCode2\":\"KE\",\"currencyIsoCode3\":\"USD\",\"networkName\":\"stellar-testnet\",\"assetSymbol\":\"USDC\",\"walletAddress\":\"$PUBLIC_KEY\"}" | json .verificationStatus | says 'CRYPTO destination verificationStatus'
curl "${A[@]}" "$B/beneficiaries/$THANDI" | json .paymentDestinations | says 'Thandi paymentDestinations'

step 'Connectors: the catalogue, one connector, what a payment through it needs'
curl "${A[@]}" "$B/connectors?countryIsoCode2=ZA&direction=OFF_RAMP" | json ".data[0].id" | says 'first ZA off-ramp connector'
curl "${A[@]}" "$B/connectors/za-bank-offramp-usdc-zar?transactionType=B2C" | json ".limits[0]" | says 'its B2C limits'
curl "${A[@]}" "$B/payments/requirements?connectorId=za-bank-offramp-usdc-zar&transactionType=B2C" | json .beneficiary | says 'B2C payment requirements (beneficiary)'

step 'Quotes: off-ramp (100 USDC to a ZA bank account) and on-ramp (1000 KES by M-Pesa into USDC)'
curl "${A[@]}" -X POST "$B/quotes" \
  -d "{\"amount\":100,\"connectorId\":\"za-bank-offramp-usdc-zar\",\"beneficiaryId\":\"$THANDI\",\"paymentDestinationId\":\"$BANK\"}" | json . | says 'off-ramp quote'
curl "${A[@]}" -X POST "$B/quotes?type=onramp" \
  -d "{\"amount\":1000,\"connectorId\":\"ke-momo-onramp-kes-usdc\",\"beneficiaryId\":\"$THANDI\",\"paymentDestinationId\":\"$MOMO\"}" | json . | says 'on-ramp quote'

step 'Payments: a P2P to a second own wallet (replayed once), then a self-swap of USDC into EURC'
SAVINGS=$(curl "${A[@]}" -X POST "$B/wallets" -d '{"walletName":"Savings","assetCode":"USDC","ownAccount":true}' | json .id)
P2P="{\"transactionId\":\"$(node -e 'console.log(crypto.randomUUID())')\",\"walletId\":\"$OWN\",\"destinationWalletId\":\"$SAVINGS\",\"sendingAssetCode\":\"USDC\",\"amount\":25.5,\"fromRef\":\"RENT-11\"}"
PAY=$(curl "${A[@]}" -X POST "$B/payments/p2p/own" -d "$P2P" | json .transactionRecordId)
curl "${A[@]}" -X POST "$B/payments/p2p/own" -d "$P2P" | json .isIdempotent | says 'P2P replay isIdempotent'
SWAP=$(curl "${A[@]}" -X POST "$B/payments/swap/own" \
  -d "{\"transactionId\":\"$(node -e 'console.log(crypto.randomUUID())')\",\"walletId\":\"$OWN\",\"destinationWalletId\":\"$OWN\",\"sendingAssetCode\":\"USDC\",\"receivingAssetCode\":\"EURC\",\"amount\":100}" | json .transactionRecordId)
# Acceptance is not settlement: the record is `initiated` until the ledger has the payment (a second or so).
settled() { for _ in $(seq 100); do [[ $(curl "${A[@]}" "$B/transactions/$1" | json .status) != initiated ]] && break; sleep 0.2; done; }
settled "$PAY"
settled "$SWAP"
curl "${A[@]}" "$B/transactions/$PAY" | json .status | says 'P2P status'
curl "${A[@]}" "$B/transactions/$SWAP" | json .receiveAmount | says 'swap receiveAmount (EURC)'
curl "${A[@]}" "$B/transactions?walletId=$OWN&limit=5" | json ".data[0].type" | says 'latest transaction type'

step 'Off-ramp: 100 USDC to the ZA bank account, paid out by the sandbox provider (about 3 s); then one failed and refunded'
curl "${A[@]}" -X PATCH "$B/beneficiaries/$THANDI" \
  -d '{"individual":{"dateOfBirth":"1990-04-12","idType":"NATIONAL_ID","idNumber":"9004120000000"},"addresses":[{"line1":"1 Long Street","city":"Cape Town","countryIsoCode2":"ZA"}]}' | json .classification | says 'Thandi classification'
offramp() {
  QUOTE=$(curl "${A[@]}" -X POST "$B/quotes" -d "{\"amount\":$1,\"connectorId\":\"za-bank-offramp-usdc-zar\",\"beneficiaryId\":\"$THANDI\",\"paymentDestinationId\":\"$BANK\"}" | json .quoteId)
  curl "${A[@]}" -X POST "$B/payments/offramp" \
    -d "{\"transactionId\":\"$(node -e 'console.log(crypto.randomUUID())')\",\"walletId\":\"$OWN\",\"beneficiaryId\":\"$THANDI\",\"paymentDestinationId\":\"$BANK\",\"quoteId\":\"$QUOTE\",\"sendingAssetCode\":\"USDC\",\"purpose\":\"FAMILY_SUPPORT\",\"sourceOfFunds\":\"SALARY\",\"toRef\":\"$2\"}" | json .transactionRecordId
}
# Waits until the record's member $2 is $3 (or, with $3 = !null, until it is set).
until_true() { for _ in $(seq 200); do v=$(curl "${A[@]}" "$B/transactions/$1" | json "$2"); [[ $v == "$3" || ( $3 == '!null' && $v != null ) ]] && break; sleep 0.2; done; }
OUT=$(offramp 100 INV-2041)
until_true "$OUT" .status completed
curl "${A[@]}" "$B/transactions/$OUT" | json .status | says 'off-ramp status'
# A toRef starting with HOLD waits for the sandbox helper: failed after the ledger leg, it is refunded.
HELD=$(offramp 10 HOLD-1)
until_true "$HELD" .externalReference '!null'
curl "${A[@]}" -X POST "$B/sandbox/transactions/$HELD/fail" | json .providerStatus | says 'held off-ramp providerStatus'
until_true "$HELD" .status refund_completed
curl "${A[@]}" "$B/transactions/$HELD" | json .status | says 'held off-ramp status'

step 'Statement: this month of the wallet, from the ledger, as JSON (its closing balance) and as CSV'
MONTH=$(date -u +%Y-%m-01)
STATEMENT="$B/statements/transactions?walletId=$OWN&assetCode=USDC&startDate=$MONTH&endDate=$(date -u +%F)&limit=100"
curl "${A[@]}" "$STATEMENT" | json .closingBalance | says 'statement closingBalance'
# CSV rows end in CRLF (RFC 4180) and the file starts with a byte order mark (for spreadsheets): both go
# before the label is added.
curl "${A[@]}" -H 'Accept: text/csv' "$STATEMENT" | sed -n '1,2p' | tr -d '\r' | sed $'1s/^\xEF\xBB\xBF//; s/^/statement CSV: /'

step 'Bespoke connectors: a customer, a reference, money in (1,000 ZAR paid to the provider, USDC in the wallet)'
curl "${A[@]}" "$B/connectors?flow=BESPOKE" | json ".data[0].id" | says 'BESPOKE connector'
ZA=za-bank-onramp-zar-usdc
curl "${A[@]}" -X PUT "$B/customers/lerato-1001/connectors/$ZA/register/individual" \
  -d '{"firstName":"Lerato","lastName":"Mokoena","dateOfBirth":"1992-03-14","idType":"NATIONAL_ID","idNumber":"9203140000000"}' | json .status | says 'customer status'
# The sandbox provider decides within 2 s; its helper decides at once. Either way Customer_Verified follows.
curl "${A[@]}" -X POST "$B/sandbox/customers/lerato-1001/connectors/$ZA/decision" -d '{"decision":"VERIFIED"}' | json . > /dev/null
for _ in $(seq 100); do [[ $(curl "${A[@]}" "$B/customers/lerato-1001/connectors/$ZA" | json .status) == VERIFIED ]] && break; sleep 0.2; done
curl "${A[@]}" "$B/customers/lerato-1001/connectors/$ZA" | json .status | says 'customer status, decided'
DEPOSITS=$(curl "${A[@]}" -X POST "$B/wallets" -d '{"walletName":"ZAR deposits","assetCode":"USDC","ownAccount":true}' | json .id)
# A reference binds to a Verified wallet: an own wallet is, once its ledger account is open (a second or so).
for _ in $(seq 100); do [[ $(curl "${A[@]}" "$B/wallets/$DEPOSITS" | json .status) == Verified ]] && break; sleep 0.2; done
REF=$(curl "${A[@]}" -X POST "$B/onramp/references" \
  -d "{\"customerId\":\"lerato-1001\",\"connectorId\":\"$ZA\",\"walletId\":\"$DEPOSITS\"}" | json .reference)
echo "reference: $REF"
curl "${A[@]}" -X POST "$B/sandbox/onramp/references/$REF/receipts" -d '{"amount":1000,"currency":"ZAR"}' | json .receiptId | says 'receiptId'
# The provider's receipt notification makes a provider_onramp record, completed once the connector's
# settlement account has paid the wallet on the ledger (a second or so).
for _ in $(seq 100); do [[ $(curl "${A[@]}" "$B/transactions?type=provider_onramp&status=completed&limit=1" | json .data) == *"\"$REF\""* ]] && break; sleep 0.2; done
RECEIPT=$(curl "${A[@]}" "$B/transactions?type=provider_onramp&limit=1" | json ".data[0].transactionRecordId")
curl "${A[@]}" "$B/transactions/$RECEIPT" | json .type | says 'receipt record type'
curl "${A[@]}" "$B/transactions/$RECEIPT" | json .status | says 'receipt record status'
curl "${A[@]}" "$B/transactions/$RECEIPT" | json .receiveAmount | says 'receipt record receiveAmount (USDC)'
curl "${A[@]}" "$B/transactions/$RECEIPT" | json .toRef | says 'receipt record toRef'
curl -sS --fail-with-body "$HORIZON/accounts/$(curl "${A[@]}" "$B/wallets/$DEPOSITS" | json .publicKey)" | json .balances | says 'deposits wallet balances (ledger)'

step 'Done'
