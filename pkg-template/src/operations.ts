// Generated from src/operations.rs by the native test `typescript_method_names_are_current`;
// do not edit (UPDATE_GENERATED=1 cargo test rewrites it).

/** The methods of `BotClient` that run a built-in operation. */
export type BotMethod =
  | "profile"
  | "orderHistory"
  | "withdrawalInfo"
  | "acceptWithdrawal"
  | "cancelWithdrawal"
  | "markDepositAsReceived"
  | "markWithdrawalAsPaid"
  | "updateRates"
  | "updatePaymentMethodLiquidity";

/** The methods of `MerchantClient` that run a built-in operation, in every entry. */
export type MerchantMethod =
  | "account"
  | "availableCountries"
  | "paymentMethodTypes"
  | "marketRate"
  | "rampLimits"
  | "rampableAssets"
  | "paymentRequest"
  | "confirmTransaction";

/** The methods of `MerchantClient` that need the secret key: the server entries' only. */
export type ServerMerchantMethod =
  | "initiateHostedPayment"
  | "cancelHostedPayment"
  | "withdrawOnchain"
  | "rampQuote"
  | "refreshRampQuote"
  | "createCustomer"
  | "addPaymentMethod"
  | "initiateRampQuoteDeposit"
  | "initiateRampQuoteWithdrawal"
  | "markDepositAsPaid"
  | "markWithdrawalAsReceived"
  | "cancelDeposit";
