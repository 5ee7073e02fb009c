// Generated from src/operations.rs by the native test `typescript_method_names_are_current`;
// do not edit (UPDATE_GENERATED=1 cargo test rewrites it).
import type {
  Account,
  AddPaymentMethodOptions,
  AgentProfile,
  ConfirmTransactionOptions,
  Country,
  CreateCustomerOptions,
  Customer,
  CustomerPaymentMethod,
  InitiateHostedPaymentOptions,
  InitiateRampQuoteDepositOptions,
  InitiateRampQuoteWithdrawalOptions,
  MarkDepositAsPaidOptions,
  MarkWithdrawalAsPaidOptions,
  MarketRate,
  MerchantCallOptions,
  MerchantCustomer,
  MerchantCustomerPage,
  MerchantCustomersOptions,
  OnchainWithdrawal,
  OrderHistoryOptions,
  OrderHistoryPage,
  P2PPaymentMethod,
  PaymentMethodType,
  PaymentRequest,
  ProfileOptions,
  QuotePaymentRequest,
  RampLimits,
  RampQuote,
  RampQuoteOptions,
  RampableAsset,
  RefreshRampQuoteOptions,
  RequestOptions,
  UpdatePaymentMethodLiquidityOptions,
  UpdateRatesOptions,
  VirtualBankAccount,
  WithdrawOnchainOptions,
  WithdrawalInfo,
  WithdrawalInfoOptions,
} from "./glue/settlement_wasm.js";

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
  | "cancelDeposit"
  | "onchainWithdrawal"
  | "merchantCustomers"
  | "merchantCustomer"
  | "requestVirtualBankAccount"
  | "virtualBankAccount";

/**
 * Each built-in operation's method as its declaration types it: its parameters and its
* result. The classes are checked against these (`tsc` fails when a method differs).
 */
export interface MethodSignatures {
  profile(options?: ProfileOptions): Promise<AgentProfile>;
  orderHistory(options: OrderHistoryOptions): Promise<OrderHistoryPage>;
  withdrawalInfo(symbol: string, options?: WithdrawalInfoOptions): Promise<WithdrawalInfo | null>;
  acceptWithdrawal(p2pPayment: string, options?: RequestOptions): Promise<boolean>;
  cancelWithdrawal(p2pPayment: string, options?: RequestOptions): Promise<boolean>;
  markDepositAsReceived(p2pPayment: string, options?: RequestOptions): Promise<boolean>;
  markWithdrawalAsPaid(options: MarkWithdrawalAsPaidOptions): Promise<boolean>;
  updateRates(options: UpdateRatesOptions): Promise<boolean>;
  updatePaymentMethodLiquidity(options: UpdatePaymentMethodLiquidityOptions): Promise<P2PPaymentMethod>;
  account(options?: MerchantCallOptions): Promise<Account>;
  availableCountries(options?: MerchantCallOptions): Promise<Country[]>;
  paymentMethodTypes(countryId: string, options?: MerchantCallOptions): Promise<PaymentMethodType[]>;
  marketRate(countryCode: string, options?: MerchantCallOptions): Promise<MarketRate | null>;
  rampLimits(options?: MerchantCallOptions): Promise<RampLimits>;
  rampableAssets(options?: MerchantCallOptions): Promise<RampableAsset[]>;
  paymentRequest(reference: string, options?: MerchantCallOptions): Promise<PaymentRequest | null>;
  confirmTransaction(options: ConfirmTransactionOptions): Promise<boolean>;
  initiateHostedPayment(options: InitiateHostedPaymentOptions): Promise<PaymentRequest>;
  cancelHostedPayment(paymentRequest: string, options?: RequestOptions): Promise<boolean>;
  withdrawOnchain(options: WithdrawOnchainOptions): Promise<OnchainWithdrawal>;
  rampQuote(options: RampQuoteOptions): Promise<RampQuote>;
  refreshRampQuote(options: RefreshRampQuoteOptions): Promise<RampQuote>;
  createCustomer(options: CreateCustomerOptions): Promise<Customer>;
  addPaymentMethod(options: AddPaymentMethodOptions): Promise<CustomerPaymentMethod>;
  initiateRampQuoteDeposit(options: InitiateRampQuoteDepositOptions): Promise<QuotePaymentRequest>;
  initiateRampQuoteWithdrawal(options: InitiateRampQuoteWithdrawalOptions): Promise<QuotePaymentRequest>;
  markDepositAsPaid(options: MarkDepositAsPaidOptions): Promise<boolean>;
  markWithdrawalAsReceived(paymentRequest: string, options?: RequestOptions): Promise<boolean>;
  cancelDeposit(paymentRequest: string, options?: RequestOptions): Promise<boolean>;
  onchainWithdrawal(id: string, options?: MerchantCallOptions): Promise<OnchainWithdrawal | null>;
  merchantCustomers(options?: MerchantCustomersOptions): Promise<MerchantCustomerPage>;
  merchantCustomer(email: string, options?: MerchantCallOptions): Promise<MerchantCustomer | null>;
  requestVirtualBankAccount(customer: string, options?: MerchantCallOptions): Promise<VirtualBankAccount>;
  virtualBankAccount(id: string, options?: MerchantCallOptions): Promise<VirtualBankAccount | null>;
}
