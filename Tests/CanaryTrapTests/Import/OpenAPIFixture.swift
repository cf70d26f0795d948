import Foundation

/// A realistic OpenAPI 3.0 document written for the tests: a shop API with 13 operations,
/// `$ref`s to components (one recursive), nested bodies, arrays, every parameter location, JSON,
/// form (nested as `deepObject`, exploded `form` and arrays), XML (`xml` names, an attribute, a
/// wrapped array) and multipart bodies, response headers and bodies, and four security schemes.
enum OpenAPIFixture {
  static let shop = #"""
    {
      "openapi": "3.0.3",
      "info": {"title": "Acme Shop", "version": "1.0.0"},
      "security": [{"partnerKey": []}],
      "paths": {
        "/charges": {
          "post": {
            "operationId": "createCharge",
            "requestBody": {"content": {"application/x-www-form-urlencoded": {
              "schema": {"type": "object", "properties": {
                "amount": {"type": "integer"},
                "card": {"$ref": "#/components/schemas/Card"},
                "metadata": {"type": "object", "properties": {"order_ref": {"type": "string"}}},
                "expand": {"type": "array", "items": {"type": "string"}},
                "items": {"type": "array", "items": {"type": "object", "properties": {
                  "price": {"type": "string"}, "quantity": {"type": "integer"}}}},
                "shipping": {"type": "object", "properties": {
                  "name": {"type": "string"}, "address": {"$ref": "#/components/schemas/Address"}}},
                "labels": {"type": "array", "items": {"type": "string"}},
                "billing": {"type": "object", "properties": {"vat_id": {"type": "string"}}}
              }},
              "encoding": {
                "card": {"style": "deepObject", "explode": true},
                "items": {"style": "deepObject", "explode": true},
                "shipping": {"style": "deepObject", "explode": true},
                "labels": {"style": "pipeDelimited", "explode": false},
                "billing": {"style": "form", "explode": false}
              }
            }}},
            "responses": {"200": {"description": "charged", "content": {"application/json": {"schema": {
              "type": "object", "properties": {"charge_id": {"type": "string"}}}}}}}
          }
        },
        "/customers": {
          "get": {
            "operationId": "listCustomers",
            "parameters": [
              {"name": "email", "in": "query", "schema": {"type": "string", "format": "email"}},
              {"name": "partnerRef", "in": "query", "schema": {"type": "string"}},
              {"$ref": "#/components/parameters/PageSize"}
            ],
            "responses": {
              "200": {
                "description": "customers",
                "headers": {"X-Next-Cursor": {"schema": {"type": "string"}}},
                "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Customer"}}}}
              },
              "401": {"description": "no"}
            }
          },
          "post": {
            "operationId": "createCustomer",
            "requestBody": {"$ref": "#/components/requestBodies/NewCustomer"},
            "responses": {"201": {"$ref": "#/components/responses/CustomerCreated"}}
          }
        },
        "/customers/{customerId}": {
          "parameters": [{"name": "customerId", "in": "path", "required": true, "schema": {"type": "string", "format": "uuid"}}],
          "get": {
            "operationId": "getCustomer",
            "parameters": [{"name": "X-Acme-Tenant", "in": "header", "schema": {"type": "string"}}],
            "responses": {"200": {"description": "one", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Customer"}}}}}
          },
          "patch": {
            "operationId": "updateCustomer",
            "requestBody": {"content": {"application/merge-patch+json": {"schema": {"$ref": "#/components/schemas/Customer"}}}},
            "responses": {"204": {"description": "done"}}
          },
          "delete": {
            "operationId": "deleteCustomer",
            "security": [{"basicAuth": []}],
            "parameters": [{"name": "reason", "in": "query", "schema": {"type": "string"}}],
            "responses": {"204": {"description": "gone"}}
          }
        },
        "/customers/{customerId}/cards": {
          "post": {
            "operationId": "addCard",
            "security": [{"bearerAuth": []}],
            "parameters": [{"name": "customerId", "in": "path", "required": true, "schema": {"type": "string"}}],
            "requestBody": {"content": {"application/json": {"schema": {
              "allOf": [
                {"$ref": "#/components/schemas/Card"},
                {"type": "object", "properties": {"billing": {"$ref": "#/components/schemas/Address"}}}
              ]
            }}}},
            "responses": {"201": {"description": "added", "content": {"application/json": {"schema": {
              "type": "object", "properties": {"cardToken": {"type": "string"}, "last4": {"type": "integer"}}
            }}}}}
          }
        },
        "/sessions": {
          "post": {
            "operationId": "signIn",
            "security": [],
            "requestBody": {"content": {
              "application/x-www-form-urlencoded": {"schema": {"type": "object", "properties": {
                "username": {"type": "string"}, "password": {"type": "string", "format": "password"},
                "otp": {"type": "integer"}, "remember": {"type": "boolean"}
              }}},
              "application/xml": {"schema": {"$ref": "#/components/schemas/Credentials"}}
            }},
            "responses": {"200": {"description": "signed in",
              "headers": {"X-Session-Token": {"schema": {"type": "string"}}, "Set-Cookie": {"schema": {"type": "string"}}},
              "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Session"}}}}}
          }
        },
        "/documents": {
          "post": {
            "operationId": "uploadDocument",
            "security": [{"oauth": ["write"]}],
            "requestBody": {"content": {"multipart/form-data": {"schema": {"type": "object", "properties": {
              "title": {"type": "string"}, "ownerEmail": {"type": "string"},
              "file": {"type": "string", "format": "binary"}, "meta": {"type": "object", "properties": {"a": {"type": "string"}}}
            }}}}},
            "responses": {"201": {"description": "stored"}}
          }
        },
        "/orders": {
          "get": {
            "operationId": "listOrders",
            "parameters": [
              {"name": "status", "in": "query", "schema": {"type": "string", "enum": ["open", "paid"]}},
              {"name": "ids", "in": "query", "schema": {"type": "array", "items": {"type": "string"}}},
              {"name": "device_id", "in": "cookie", "schema": {"type": "string"}},
              {"name": "Accept", "in": "header", "schema": {"type": "string"}}
            ],
            "responses": {"200": {"description": "orders", "content": {"application/json": {"schema": {
              "type": "object", "properties": {"orders": {"type": "array", "items": {"$ref": "#/components/schemas/Order"}}}
            }}}}}
          },
          "post": {
            "operationId": "placeOrder",
            "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Order"}}}},
            "responses": {"201": {"description": "placed", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Order"}}}}}
          }
        },
        "/payments/{paymentId}/refund": {
          "put": {
            "operationId": "refundPayment",
            "parameters": [
              {"name": "paymentId", "in": "path", "required": true, "schema": {"type": "integer"}},
              {"name": "Idempotency-Key", "in": "header", "schema": {"type": "string"}}
            ],
            "requestBody": {"content": {"application/json": {"schema": {
              "oneOf": [
                {"type": "object", "properties": {"iban": {"type": "string"}, "amount": {"type": "number"}}},
                {"type": "object", "properties": {"card_number": {"type": "string"}}}
              ]
            }}}},
            "responses": {"200": {"description": "refunded"}}
          }
        },
        "/health": {
          "head": {"operationId": "health", "security": [], "responses": {"200": {"description": "up"}}}
        }
      },
      "components": {
        "parameters": {
          "PageSize": {"name": "page_size", "in": "query", "schema": {"type": "integer"}}
        },
        "requestBodies": {
          "NewCustomer": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Customer"}}}}
        },
        "responses": {
          "CustomerCreated": {"description": "created",
            "headers": {"Location": {"schema": {"type": "string"}}, "X-Request-Signature": {"schema": {"type": "string"}}},
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Customer"}}}}
        },
        "schemas": {
          "Customer": {"type": "object", "properties": {
            "id": {"type": "string", "format": "uuid"},
            "name": {"type": "string"},
            "email": {"type": "string", "format": "email"},
            "phone": {"type": "string"},
            "birthdate": {"type": "string", "format": "date"},
            "address": {"$ref": "#/components/schemas/Address"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "referredBy": {"$ref": "#/components/schemas/Customer"}
          }},
          "Address": {"type": "object", "properties": {
            "line1": {"type": "string"}, "city": {"type": "string"}, "postcode": {"type": "string"},
            "geo": {"type": "object", "properties": {"lat": {"type": "number"}, "lon": {"type": "number"}}}
          }},
          "Card": {"type": "object", "required": ["number"], "properties": {
            "number": {"type": "string"}, "cvv": {"type": "string"}, "holder": {"type": "string"}
          }},
          "Order": {"type": "object", "properties": {
            "id": {"type": "string"},
            "items": {"type": "array", "items": {"type": "object", "properties": {
              "sku": {"type": "string"}, "quantity": {"type": "integer"}, "giftMessage": {"type": "string"}
            }}},
            "shipping": {"$ref": "#/components/schemas/Address"},
            "paid": {"type": "boolean"}
          }},
          "Credentials": {"type": "object", "xml": {"name": "login"}, "properties": {
            "username": {"type": "string"},
            "password": {"type": "string", "format": "password"},
            "deviceId": {"type": "string", "format": "uuid", "xml": {"name": "device", "attribute": true}},
            "factors": {"type": "array", "xml": {"wrapped": true}, "items": {"type": "string", "xml": {"name": "factor"}}},
            "recoveryCodes": {"type": "array", "items": {"type": "string", "xml": {"name": "code"}}},
            "client": {"type": "object", "properties": {"version": {"type": "string"}, "secretHash": {"type": "string"}}}
          }},
          "Session": {"type": "object", "properties": {
            "access_token": {"type": "string"}, "refresh_token": {"type": "string"},
            "user": {"type": "object", "properties": {"email": {"type": "string"}}}
          }}
        },
        "securitySchemes": {
          "partnerKey": {"type": "apiKey", "in": "header", "name": "X-Partner-Key"},
          "basicAuth": {"type": "http", "scheme": "basic"},
          "bearerAuth": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"},
          "oauth": {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "https://acme.invalid/token", "scopes": {"write": "w"}}}}
        }
      }
    }
    """#

  static var shopData: Data { Data(shop.utf8) }
}
