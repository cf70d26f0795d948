extension SensitiveName {
  private static let owaspLogging =
    "OWASP Logging Cheat Sheet, Data to exclude (session ids, access tokens, passwords, keys, PII, payment data)"
  private static let rfc6749 = "RFC 6749 (OAuth 2.0)"
  private static let oidcClaims = "OpenID Connect Core 1.0, 5.1 Standard Claims"
  private static let sigV4 = "AWS Signature Version 4, authenticating requests (query string and headers)"
  private static let pciDSS =
    "PCI DSS 4.0, 3.3/3.4: PAN and card verification code must never be stored or shown"

  /// The built-in catalog: names that carry secrets or personal data in real APIs, each with the
  /// places it appears in, the shape of its value and its source.
  ///
  /// One-time codes, card numbers, CVVs, phone numbers and coordinates are planted as the
  /// digits-only ``CanaryShape/number``: a real six-digit code is too short to be a unique canary,
  /// and a redactor that recognizes values by being all digits still sees all digits.
  public static let catalog: [SensitiveName] =
    apiKeys + tokens + credentials + oneTimeCodes + personalData + payment + devices

  /// API keys in their common spellings, with case and separator variants of `apiKey`.
  package static let apiKeys: [SensitiveName] = [
    .init(
      "apiKey", .apiKey, .token, in: Place.parameter,
      source: "NewsAPI `apiKey` query parameter; Firebase config `apiKey`"),
    .init(
      "ApiKey", .apiKey, .token, in: [.query, .json],
      source: "case variant of `apiKey` (ASP.NET model binding, PascalCase JSON)"),
    .init(
      "api-key", .apiKey, .token, in: [.query, .header, .form],
      source: "Azure OpenAI `api-key` request header"),
    .init(
      "API_KEY", .apiKey, .token, in: [.query, .json, .form],
      source: "separator and case variant of `apiKey` (environment-style)"),
    .init(
      "api_key", .apiKey, .token, in: Place.parameter,
      source: "Stripe docs `api_key`; SendGrid/Mailchimp SDK parameters `api_key`"),
    .init(
      "apikey", .apiKey, .token, in: [.query, .header, .form],
      source: "Supabase `apikey` request header; OMDb `apikey` query"),
    .init(
      "key", .apiKey, .token, in: [.query],
      source: "Google APIs `key` query parameter (API keys documentation)"),
    .init(
      "x-api-key", .apiKey, .token, in: [.header],
      source: "AWS API Gateway `x-api-key` header; Anthropic API `x-api-key`"),
    .init("X-Goog-Api-Key", .apiKey, .token, in: [.header], source: "Google Cloud `X-Goog-Api-Key` header"),
    .init(
      "Ocp-Apim-Subscription-Key", .apiKey, .token, in: [.header, .query],
      source: "Azure API Management subscription key header"),
    .init(
      "X-Algolia-API-Key", .apiKey, .token, in: [.header], source: "Algolia REST API authentication header"),
    .init("DD-API-KEY", .apiKey, .token, in: [.header], source: "Datadog API `DD-API-KEY` header"),
    .init("appid", .apiKey, .token, in: [.query], source: "OpenWeather API `appid` query parameter"),
    .init(
      "AWSAccessKeyId", .apiKey, .token, in: [.query],
      source: "AWS S3 query-string authentication (Signature Version 2)"),
    .init(
      "client_id", .apiKey, .token, in: Place.parameter, source: rfc6749 + " 2.3.1 client authentication"),
  ]

  /// Bearer, session, OAuth and signing tokens and signatures.
  package static let tokens: [SensitiveName] = [
    .init(
      "access_token", .token, .jwt, in: [.query, .form, .json, .responseJSON],
      source: rfc6749 + " 5.1; RFC 6750 2.3 URI query parameter"),
    .init(
      "accessToken", .token, .jwt, in: [.json, .nestedJSON, .responseJSON],
      source: "camelCase of `access_token` (Firebase, AWS Cognito SDK responses)"),
    .init(
      "AccessToken", .token, .jwt, in: [.responseJSON],
      source: "AWS Cognito InitiateAuth AuthenticationResult.AccessToken"),
    .init(
      "refresh_token", .token, .token, in: [.form, .json, .nestedJSON],
      source: rfc6749 + " 6 refreshing an access token"),
    .init(
      "refreshToken", .token, .token, in: [.json, .nestedJSON, .responseJSON],
      source: "Firebase Auth REST `refreshToken`"),
    .init(
      "id_token", .token, .jwt, in: [.form, .json, .query, .responseJSON],
      source: "OpenID Connect Core 1.0, 3.1.3.3 token response `id_token`"),
    .init(
      "idToken", .token, .jwt, in: [.json, .nestedJSON, .responseJSON], source: "Firebase Auth REST `idToken`"
    ),
    .init("IdToken", .token, .jwt, in: [.responseJSON], source: "AWS Cognito AuthenticationResult.IdToken"),
    .init(
      "token", .token, .token, in: [.query, .form, .json, .nestedJSON, .multipart, .responseJSON],
      source: "Slack Web API `token` argument; RFC 7009 token revocation"),
    .init("auth_token", .token, .token, in: Place.parameter, source: owaspLogging),
    .init(
      "authToken", .token, .token, in: [.json, .nestedJSON, .responseJSON],
      source: "camelCase of `auth_token` (Twilio SDK `authToken`)"),
    .init("session_token", .token, .token, in: [.json, .form, .responseJSON], source: owaspLogging),
    .init(
      "sessionToken", .token, .token, in: [.json, .nestedJSON, .responseJSON],
      source: "AWS STS credentials `SessionToken` camelCase"),
    .init(
      "SessionToken", .token, .token, in: [.responseJSON],
      source: "AWS STS GetSessionToken Credentials.SessionToken"),
    .init(
      "oauth_token", .token, .token, in: [.query, .form], source: "RFC 5849 (OAuth 1.0) 3.1 `oauth_token`"),
    .init(
      "oauth_signature", .token, .token, in: [.query, .form],
      source: "RFC 5849 (OAuth 1.0) 3.4 `oauth_signature`"),
    .init(
      "X-Auth-Token", .token, .token, in: [.header, .responseHeader],
      source: "OpenStack Keystone `X-Auth-Token`"),
    .init(
      "X-Access-Token", .token, .token, in: [.header],
      source: "custom token header of in-house APIs (e.g. Optrix ARDI token access rule `X-Access-Token`)"),
    .init(
      "X-Subject-Token", .token, .token, in: [.responseHeader],
      source: "OpenStack Keystone issued-token response header"),
    .init(
      "X-Amz-Security-Token", .token, .token, in: [.header, .query], source: sigV4 + ", temporary credentials"
    ),
    .init("X-Amz-Signature", .token, .token, in: [.query], source: sigV4 + ", presigned URL"),
    .init("X-Amz-Credential", .token, .token, in: [.query], source: sigV4 + ", presigned URL"),
    .init(
      "signature", .token, .token, in: [.query, .form, .json],
      source: "Google Maps Platform digital `signature` URL parameter"),
    .init(
      "Signature", .token, .token, in: [.query],
      source: "AWS S3 query-string authentication (Signature Version 2)"),
    .init("sig", .token, .token, in: [.query], source: "Azure Storage shared access signature `sig`"),
    .init(
      "X-Shopify-Access-Token", .token, .token, in: [.header], source: "Shopify Admin API access token header"
    ),
    .init(
      "PRIVATE-TOKEN", .token, .token, in: [.header], source: "GitLab REST API personal access token header"),
    .init(
      "X-CSRF-Token", .token, .token, in: [.header, .responseHeader],
      source: "Rails `X-CSRF-Token` request header (csrf_meta_tags, rails-ujs)"),
    .init("X-XSRF-TOKEN", .token, .token, in: [.header], source: "Angular HttpClient XSRF header"),
    .init(
      "csrf_token", .token, .token, in: [.form, .multipart],
      source: "OWASP CSRF Prevention Cheat Sheet (hidden form field)"),
    .init("XSRF-TOKEN", .token, .token, in: [.cookie], source: "Angular XSRF cookie"),
    .init("csrftoken", .token, .token, in: [.cookie], source: "Django CSRF cookie"),
    .init("sessionid", .token, .token, in: [.cookie], source: "Django session cookie"),
    .init(
      "JSESSIONID", .token, .token, in: [.cookie, .query],
      source: "Java Servlet session cookie and `;jsessionid` URL rewriting"),
    .init("PHPSESSID", .token, .token, in: [.cookie], source: "PHP session cookie"),
    .init("connect.sid", .token, .token, in: [.cookie], source: "Express express-session cookie"),
    .init("ASP.NET_SessionId", .token, .token, in: [.cookie], source: "ASP.NET session state cookie"),
    .init("laravel_session", .token, .token, in: [.cookie], source: "Laravel session cookie"),
    .init("auth", .token, .jwt, in: [.cookie, .json], source: owaspLogging),
    .init(
      "jwt", .token, .jwt, in: [.cookie, .json, .query],
      source: "RFC 7519 JSON Web Token, commonly sent under this name"),
    .init(
      "bearer", .token, .jwt, in: [.json, .query],
      source: "RFC 6750 bearer token, commonly sent under this name"),
  ]

  /// Passwords, client secrets and private keys.
  package static let credentials: [SensitiveName] = [
    .init(
      "password", .credential, .password, in: [.query, .nestedJSON, .multipart],
      source: owaspLogging + "; " + rfc6749 + " 4.3.2"),
    .init(
      "Password", .credential, .password, in: [.json, .form],
      source: "AWS Cognito SignUp / AdminSetUserPassword `Password`"),
    .init("passwd", .credential, .password, in: [.form, .json], source: owaspLogging),
    .init("pwd", .credential, .password, in: [.form, .query], source: owaspLogging),
    .init("pass", .credential, .password, in: [.form, .json], source: owaspLogging),
    .init(
      "current_password", .credential, .password, in: Place.bodyField,
      source: "Devise registrations#update `current_password`"),
    .init(
      "new_password", .credential, .password, in: Place.bodyField,
      source: "common change-password field (Devise names the new one `password`, beside `current_password`)"),
    .init(
      "client_secret", .credential, .token, in: [.query, .form, .json],
      source: rfc6749 + " 2.3.1 client password"),
    .init(
      "clientSecret", .credential, .token, in: [.json, .nestedJSON],
      source: "camelCase of `client_secret` (Auth0, MSAL configuration)"),
    .init("secret", .credential, .token, in: Place.parameter, source: "Google reCAPTCHA siteverify `secret`"),
    .init(
      "secret_key", .credential, .token, in: [.json, .form],
      source: "AWS `aws_secret_access_key`; Stripe secret key"),
    .init(
      "SecretAccessKey", .credential, .token, in: [.responseJSON],
      source: "AWS STS Credentials.SecretAccessKey"),
    .init(
      "private_key", .credential, .token, in: [.json, .nestedJSON],
      source: "Google service-account JSON key file `private_key`"),
    .init("code_verifier", .credential, .token, in: [.form], source: "RFC 7636 (PKCE) 4.5 `code_verifier`"),
    .init("client_assertion", .credential, .jwt, in: [.form], source: "RFC 7523 JWT client authentication"),
  ]

  /// One-time, verification and authorization codes.
  package static let oneTimeCodes: [SensitiveName] = [
    .init(
      "otp", .oneTimeCode, .number, in: Place.parameter,
      source: "RFC 6238 TOTP / RFC 4226 HOTP one-time passwords"),
    .init("code", .oneTimeCode, .token, in: [.form, .json], source: rfc6749 + " 4.1.3 authorization code"),
    .init("totp", .oneTimeCode, .number, in: Place.bodyField, source: "RFC 6238 TOTP"),
    .init(
      "mfa_code", .oneTimeCode, .number, in: Place.bodyField,
      source: "in-house MFA code field (Auth0's MFA grant names it `otp`; no vendor documents this spelling)"),
    .init(
      "verification_code", .oneTimeCode, .number, in: Place.parameter,
      source: "Twilio Verify `Code` / SMS verification flows"),
    .init(
      "verificationCode", .oneTimeCode, .number, in: [.json, .nestedJSON],
      source: "camelCase of `verification_code`"),
    .init(
      "sms_code", .oneTimeCode, .number, in: [.json, .form],
      source: "SMS one-time code flows (OWASP Multifactor Authentication Cheat Sheet)"),
    .init("pin", .oneTimeCode, .number, in: Place.bodyField, source: owaspLogging),
    .init("one_time_password", .oneTimeCode, .number, in: [.json, .form], source: "RFC 4226 HOTP"),
    .init(
      "recovery_code", .oneTimeCode, .token, in: [.json, .form], source: "GitHub two-factor recovery codes"),
  ]

  /// Personal data: contact details, names, addresses, birth dates, national ids and locations.
  package static let personalData: [SensitiveName] = [
    .init(
      "email", .personal, .email, in: [.nestedJSON, .form, .multipart, .responseJSON],
      source: oidcClaims + " `email`"),
    .init("Email", .personal, .email, in: [.json, .query], source: "PascalCase of `email`"),
    .init(
      "emailAddress", .personal, .email, in: [.json, .nestedJSON, .query],
      source: "Gmail API users.getProfile `emailAddress`"),
    .init(
      "email_address", .personal, .email, in: [.query, .form, .json],
      source: "Mailchimp member `email_address`"),
    .init(
      "username", .personal, .email, in: [.query, .json, .multipart],
      source: rfc6749 + " 4.3.2 resource owner `username`"),
    .init("phone", .personal, .number, in: Place.parameter, source: owaspLogging),
    .init(
      "phone_number", .personal, .number, in: [.json, .nestedJSON, .form, .responseJSON],
      source: oidcClaims + " `phone_number`"),
    .init(
      "phoneNumber", .personal, .number, in: [.json, .nestedJSON, .query],
      source: "Firebase Auth `phoneNumber`"),
    .init("msisdn", .personal, .number, in: [.query, .json], source: "GSMA / Vonage SMS API `msisdn`"),
    .init(
      "name", .personal, .token, in: [.nestedJSON, .form, .responseJSON], source: oidcClaims + " `name`"),
    .init(
      "given_name", .personal, .token, in: [.json, .nestedJSON, .responseJSON],
      source: oidcClaims + " `given_name`"),
    .init(
      "family_name", .personal, .token, in: [.json, .nestedJSON, .responseJSON],
      source: oidcClaims + " `family_name`"),
    .init(
      "firstName", .personal, .token, in: [.json, .nestedJSON, .query],
      source: "camelCase of `given_name` (common REST models)"),
    .init(
      "lastName", .personal, .token, in: [.json, .nestedJSON, .query],
      source: "camelCase of `family_name` (common REST models)"),
    .init(
      "address", .personal, .token, in: [.json, .form, .responseJSON], source: oidcClaims + " `address`"),
    .init(
      "street_address", .personal, .token, in: [.nestedJSON, .form],
      source: oidcClaims + " address.street_address"),
    .init(
      "postal_code", .personal, .number, in: [.nestedJSON, .form, .query],
      source: oidcClaims + " address.postal_code"),
    .init("birthdate", .personal, .number, in: [.json, .responseJSON], source: oidcClaims + " `birthdate`"),
    .init("dob", .personal, .number, in: [.json, .form, .query], source: owaspLogging),
    .init(
      "date_of_birth", .personal, .number, in: [.json, .nestedJSON, .form],
      source: "Stripe API v2 accounts `identity.individual.date_of_birth` (v1 names it `dob`)"),
    .init(
      "ssn", .personal, .number, in: [.json, .nestedJSON, .form, .query],
      source: "US Social Security number (NIST SP 800-122 PII examples)"),
    .init(
      "id_number", .personal, .number, in: [.json, .form], source: "Stripe Connect `individual.id_number`"),
    .init(
      "national_id", .personal, .token, in: [.json, .nestedJSON, .form],
      source: "NIST SP 800-122 PII examples (national identification number)"),
    .init(
      "passport_number", .personal, .token, in: [.json, .form],
      source: "NIST SP 800-122 PII examples (passport number)"),
    .init("tax_id", .personal, .token, in: [.json, .form], source: "Stripe customer `tax_id` data"),
    .init(
      "lat", .location, .number, in: [.query, .json, .nestedJSON, .responseJSON],
      source: "Google Maps / OpenWeather `lat` parameter"),
    .init(
      "lon", .location, .number, in: [.query, .json, .nestedJSON, .responseJSON],
      source: "OpenWeather `lon` parameter"),
    .init(
      "lng", .location, .number, in: [.query, .json, .nestedJSON],
      source: "Google Maps `lng` (LatLng literal)"),
    .init(
      "latitude", .location, .number, in: [.json, .nestedJSON, .query],
      source: "Apple CLLocationCoordinate2D / Foursquare `latitude`"),
    .init(
      "longitude", .location, .number, in: [.json, .nestedJSON, .query],
      source: "Apple CLLocationCoordinate2D / Foursquare `longitude`"),
    .init(
      "ip_address", .personal, .token, in: [.json, .responseJSON],
      source: "GDPR Recital 30 online identifiers (IP address)"),
  ]

  /// Payment data.
  package static let payment: [SensitiveName] = [
    .init("card_number", .payment, .number, in: Place.bodyField, source: pciDSS),
    .init(
      "cardNumber", .payment, .number, in: [.json, .nestedJSON],
      source: pciDSS
        + "; flutter_braintree BraintreeCreditCardRequest `cardNumber` (Braintree GraphQL names it `number`)"),
    .init(
      "number", .payment, .number, in: [.nestedJSON, .form],
      source: "Stripe `card.number` / Adyen paymentMethod `number`"),
    .init("pan", .payment, .number, in: [.json, .nestedJSON], source: pciDSS + " (primary account number)"),
    .init("cvv", .payment, .number, in: Place.bodyField, source: pciDSS),
    .init("cvc", .payment, .number, in: [.json, .nestedJSON, .form], source: "Stripe `card.cvc`"),
    .init("cvv2", .payment, .number, in: [.json, .form], source: pciDSS),
    .init(
      "securityCode", .payment, .number, in: [.json, .nestedJSON],
      source: "Adyen `cvc` / PayPal `security_code` camelCase"),
    .init(
      "iban", .payment, .token, in: [.json, .nestedJSON, .form, .responseJSON],
      source: "ISO 13616 IBAN; Stripe SEPA debit `iban`"),
    .init(
      "account_number", .payment, .number, in: [.json, .nestedJSON, .form],
      source: "Stripe bank account `account_number`"),
    .init(
      "routing_number", .payment, .number, in: [.json, .form], source: "Stripe bank account `routing_number`"),
  ]

  /// Device, advertising and push identifiers.
  package static let devices: [SensitiveName] = [
    .init(
      "device_id", .device, .uuid, in: [.query, .json, .nestedJSON, .form],
      source: "GDPR Recital 30 device identifiers; Segment `context.device.id`"),
    .init(
      "deviceId", .device, .uuid, in: [.json, .nestedJSON, .query],
      source: "camelCase of `device_id` (Firebase, Amplitude `device_id`)"),
    .init("X-Device-Id", .device, .uuid, in: [.header], source: "common device-id request header"),
    .init(
      "idfa", .device, .uuid, in: [.query, .json, .nestedJSON],
      source: "Apple ASIdentifierManager advertisingIdentifier (IDFA)"),
    .init("idfv", .device, .uuid, in: [.query, .json], source: "Apple UIDevice identifierForVendor (IDFV)"),
    .init(
      "advertising_id", .device, .uuid, in: [.query, .json],
      source: "Google Play Services advertising ID (GAID)"),
    .init("android_id", .device, .token, in: [.query, .json], source: "Android Settings.Secure.ANDROID_ID"),
    .init("imei", .device, .number, in: [.query, .json], source: "3GPP TS 23.003 IMEI"),
    .init(
      "push_token", .device, .token, in: [.json, .nestedJSON],
      source: "APNs device token / FCM registration token"),
    .init(
      "fcm_token", .device, .token, in: [.json, .form], source: "Firebase Cloud Messaging registration token"),
    .init("apns_token", .device, .token, in: [.json], source: "Apple Push Notification service device token"),
  ]
}
