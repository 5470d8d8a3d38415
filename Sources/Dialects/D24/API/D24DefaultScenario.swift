// Generated from scenarios/default.json (a test keeps the two identical): the built-in default
// bank with D24's magic values, so the binary needs no file to start.

extension D24Dialect {
    /// The text of `scenarios/default.json`.
    public static let builtInScenarioText = #"""
{
  "name": "default bank",
  "description": "The bank every sandbox starts with: DELIVERED after 5 s, COMPLETED 10 s later, and magic beneficiary names for every other outcome (the D24 guide, 'Magic values').",
  "bank": {
    "rules": [
      {
        "name": "REJECT 800",
        "when": {
          "beneficiary_name": "REJECT 800"
        },
        "then": [
          {
            "after": "5s",
            "status": "DELIVERED"
          },
          {
            "after": "10s",
            "status": "REJECTED",
            "rejection_code": 800,
            "rejection_reason": "ERROR_ACCOUNT_INCORRECT"
          }
        ]
      },
      {
        "name": "REJECT 801",
        "when": {
          "beneficiary_name": "REJECT 801"
        },
        "then": [
          {
            "after": "5s",
            "status": "DELIVERED"
          },
          {
            "after": "10s",
            "status": "REJECTED",
            "rejection_code": 801,
            "rejection_reason": "ERROR_ACCOUNT_CLOSED"
          }
        ]
      },
      {
        "name": "REJECT 802",
        "when": {
          "beneficiary_name": "REJECT 802"
        },
        "then": [
          {
            "after": "5s",
            "status": "DELIVERED"
          },
          {
            "after": "10s",
            "status": "REJECTED",
            "rejection_code": 802,
            "rejection_reason": "ERROR_AMOUNT_INCORRECT"
          }
        ]
      },
      {
        "name": "REJECT 803",
        "when": {
          "beneficiary_name": "REJECT 803"
        },
        "then": [
          {
            "after": "5s",
            "status": "DELIVERED"
          },
          {
            "after": "10s",
            "status": "REJECTED",
            "rejection_code": 803,
            "rejection_reason": "ERROR_BANK_INVALID"
          }
        ]
      },
      {
        "name": "REJECT 804",
        "when": {
          "beneficiary_name": "REJECT 804"
        },
        "then": [
          {
            "after": "5s",
            "status": "DELIVERED"
          },
          {
            "after": "10s",
            "status": "REJECTED",
            "rejection_code": 804,
            "rejection_reason": "ERROR_BANK_BRANCH_INCORRECT"
          }
        ]
      },
      {
        "name": "REJECT 805",
        "when": {
          "beneficiary_name": "REJECT 805"
        },
        "then": [
          {
            "after": "5s",
            "status": "DELIVERED"
          },
          {
            "after": "10s",
            "status": "REJECTED",
            "rejection_code": 805,
            "rejection_reason": "ERROR_BENEFICIARY_DOCUMENT_ID_INVALID"
          }
        ]
      },
      {
        "name": "REJECT 806",
        "when": {
          "beneficiary_name": "REJECT 806"
        },
        "then": [
          {
            "after": "5s",
            "status": "DELIVERED"
          },
          {
            "after": "10s",
            "status": "REJECTED",
            "rejection_code": 806,
            "rejection_reason": "ERROR_BENEFICIARY_NAME_INCORRECT"
          }
        ]
      },
      {
        "name": "REJECT 807",
        "when": {
          "beneficiary_name": "REJECT 807"
        },
        "then": [
          {
            "after": "5s",
            "status": "DELIVERED"
          },
          {
            "after": "10s",
            "status": "REJECTED",
            "rejection_code": 807,
            "rejection_reason": "ERROR_REJECTED_BY_BANK"
          }
        ]
      },
      {
        "name": "REJECT 808",
        "when": {
          "beneficiary_name": "REJECT 808"
        },
        "then": [
          {
            "after": "5s",
            "status": "DELIVERED"
          },
          {
            "after": "10s",
            "status": "REJECTED",
            "rejection_code": 808,
            "rejection_reason": "ERROR_OTHER"
          }
        ]
      },
      {
        "name": "REJECT 809",
        "when": {
          "beneficiary_name": "REJECT 809"
        },
        "then": [
          {
            "after": "5s",
            "status": "DELIVERED"
          },
          {
            "after": "10s",
            "status": "REJECTED",
            "rejection_code": 809,
            "rejection_reason": "WITHDRAWAL_EXPIRED"
          }
        ]
      },
      {
        "name": "REJECT 810",
        "when": {
          "beneficiary_name": "REJECT 810"
        },
        "then": [
          {
            "after": "5s",
            "status": "DELIVERED"
          },
          {
            "after": "10s",
            "status": "REJECTED",
            "rejection_code": 810,
            "rejection_reason": "LIMIT_EXCEEDED"
          }
        ]
      },
      {
        "name": "REJECT 811",
        "when": {
          "beneficiary_name": "REJECT 811"
        },
        "then": [
          {
            "after": "5s",
            "status": "DELIVERED"
          },
          {
            "after": "10s",
            "status": "REJECTED",
            "rejection_code": 811,
            "rejection_reason": "RISK_POLICY"
          }
        ]
      },
      {
        "name": "REJECT 812",
        "when": {
          "beneficiary_name": "REJECT 812"
        },
        "then": [
          {
            "after": "5s",
            "status": "DELIVERED"
          },
          {
            "after": "10s",
            "status": "REJECTED",
            "rejection_code": 812,
            "rejection_reason": "BLOCKED_FROZEN_ACCOUNT"
          }
        ]
      },
      {
        "name": "REJECT 813",
        "when": {
          "beneficiary_name": "REJECT 813"
        },
        "then": [
          {
            "after": "5s",
            "status": "DELIVERED"
          },
          {
            "after": "10s",
            "status": "REJECTED",
            "rejection_code": 813,
            "rejection_reason": "DOCUMENT_ACCOUNT_MISMATCH"
          }
        ]
      },
      {
        "name": "REJECT 814",
        "when": {
          "beneficiary_name": "REJECT 814"
        },
        "then": [
          {
            "after": "5s",
            "status": "DELIVERED"
          },
          {
            "after": "10s",
            "status": "REJECTED",
            "rejection_code": 814,
            "rejection_reason": "INVALID_PIX_KEY"
          }
        ]
      },
      {
        "name": "REJECT 818",
        "when": {
          "beneficiary_name": "REJECT 818"
        },
        "then": [
          {
            "after": "5s",
            "status": "DELIVERED"
          },
          {
            "after": "10s",
            "status": "REJECTED",
            "rejection_code": 818,
            "rejection_reason": "ACCOUNT_UNABLE"
          }
        ]
      },
      {
        "name": "REJECT 819",
        "when": {
          "beneficiary_name": "REJECT 819"
        },
        "then": [
          {
            "after": "5s",
            "status": "DELIVERED"
          },
          {
            "after": "10s",
            "status": "REJECTED",
            "rejection_code": 819,
            "rejection_reason": "INVALID_ACCOUNT_TYPE"
          }
        ]
      },
      {
        "name": "REJECT 820",
        "when": {
          "beneficiary_name": "REJECT 820"
        },
        "then": [
          {
            "after": "5s",
            "status": "DELIVERED"
          },
          {
            "after": "10s",
            "status": "REJECTED",
            "rejection_code": 820,
            "rejection_reason": "REJECTED_BY_MERCHANT_REQUEST"
          }
        ]
      },
      {
        "name": "REJECT 821",
        "when": {
          "beneficiary_name": "REJECT 821"
        },
        "then": [
          {
            "after": "5s",
            "status": "DELIVERED"
          },
          {
            "after": "10s",
            "status": "REJECTED",
            "rejection_code": 821,
            "rejection_reason": "MONTHLY_LIMIT_EXCEEDED_FOR_USER"
          }
        ]
      },
      {
        "name": "REJECT 824",
        "when": {
          "beneficiary_name": "REJECT 824"
        },
        "then": [
          {
            "after": "5s",
            "status": "DELIVERED"
          },
          {
            "after": "10s",
            "status": "REJECTED",
            "rejection_code": 824,
            "rejection_reason": "REJECTED_BY_THIRD_PARTY_CONTROL"
          }
        ]
      },
      {
        "name": "LATE REJECT 826",
        "when": {
          "beneficiary_name": "LATE REJECT 826"
        },
        "then": [
          {
            "after": "5s",
            "status": "DELIVERED"
          },
          {
            "after": "10s",
            "status": "COMPLETED",
            "bank_reference_id": "E2E-SANDBOX"
          },
          {
            "after": "1h",
            "status": "REJECTED",
            "rejection_code": 826,
            "rejection_reason": "WITHDRAWAL_REVERSED",
            "status_reason": "Returned by the beneficiary's bank"
          }
        ]
      },
      {
        "name": "KYC 101",
        "when": {
          "beneficiary_name": "KYC 101"
        },
        "decline": {
          "code": 504,
          "reason": "User rejected by KYC check",
          "reason_code": 101
        }
      },
      {
        "name": "KYC 105",
        "when": {
          "beneficiary_name": "KYC 105"
        },
        "decline": {
          "code": 504,
          "reason": "Underage user detected",
          "reason_code": 105
        }
      },
      {
        "name": "STUCK",
        "when": {
          "beneficiary_name": "STUCK"
        },
        "then": [
          {
            "after": "5s",
            "status": "DELIVERED"
          }
        ]
      },
      {
        "name": "NEVER",
        "when": {
          "beneficiary_name": "NEVER"
        },
        "then": []
      },
      {
        "name": "SLOW",
        "when": {
          "beneficiary_name": "SLOW"
        },
        "then": [
          {
            "after": "1h",
            "status": "DELIVERED"
          },
          {
            "after": "2bd",
            "status": "COMPLETED"
          }
        ]
      }
    ],
    "default": [
      {
        "after": "5s",
        "status": "DELIVERED"
      },
      {
        "after": "10s",
        "status": "COMPLETED"
      }
    ]
  }
}
"""#
}
