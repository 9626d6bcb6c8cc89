// API Priority and Fairness' bootstrap configuration as a 1.35 API server keeps it: the mandatory
// objects (their specs fixed) and the suggested ones, all marked apf.kubernetes.io/autoupdate-spec.
// Data from upstream (the 1.34 removal of endpoint-controller and workload-leader-election applied).
// Upstream: staging/src/k8s.io/apiserver/pkg/apis/flowcontrol/bootstrap/default.go.
import type { FlowSchema } from './flow-schema.ts';
import type { PriorityLevelConfiguration } from './priority-level-configuration.ts';

export interface FlowcontrolConfiguration {
  readonly priorityLevelConfigurations: readonly PriorityLevelConfiguration[];
  readonly flowSchemas: readonly FlowSchema[];
}

export const mandatoryConfiguration: FlowcontrolConfiguration = {
  priorityLevelConfigurations: [
    {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'PriorityLevelConfiguration',
      metadata: {
        annotations: {
          'apf.kubernetes.io/autoupdate-spec': 'true'
        },
        name: 'catch-all'
      },
      spec: {
        limited: {
          lendablePercent: 0,
          limitResponse: {
            type: 'Reject'
          },
          nominalConcurrencyShares: 5
        },
        type: 'Limited'
      }
    },
    {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'PriorityLevelConfiguration',
      metadata: {
        annotations: {
          'apf.kubernetes.io/autoupdate-spec': 'true'
        },
        name: 'exempt'
      },
      spec: {
        exempt: {
          lendablePercent: 0,
          nominalConcurrencyShares: 0
        },
        type: 'Exempt'
      }
    }
  ],
  flowSchemas: [
    {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'FlowSchema',
      metadata: {
        annotations: {
          'apf.kubernetes.io/autoupdate-spec': 'true'
        },
        name: 'exempt'
      },
      spec: {
        matchingPrecedence: 1,
        priorityLevelConfiguration: {
          name: 'exempt'
        },
        rules: [
          {
            nonResourceRules: [
              {
                nonResourceURLs: [
                  '*'
                ],
                verbs: [
                  '*'
                ]
              }
            ],
            resourceRules: [
              {
                apiGroups: [
                  '*'
                ],
                clusterScope: true,
                namespaces: [
                  '*'
                ],
                resources: [
                  '*'
                ],
                verbs: [
                  '*'
                ]
              }
            ],
            subjects: [
              {
                group: {
                  name: 'system:masters'
                },
                kind: 'Group'
              }
            ]
          }
        ]
      }
    },
    {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'FlowSchema',
      metadata: {
        annotations: {
          'apf.kubernetes.io/autoupdate-spec': 'true'
        },
        name: 'catch-all'
      },
      spec: {
        distinguisherMethod: {
          type: 'ByUser'
        },
        matchingPrecedence: 10000,
        priorityLevelConfiguration: {
          name: 'catch-all'
        },
        rules: [
          {
            nonResourceRules: [
              {
                nonResourceURLs: [
                  '*'
                ],
                verbs: [
                  '*'
                ]
              }
            ],
            resourceRules: [
              {
                apiGroups: [
                  '*'
                ],
                clusterScope: true,
                namespaces: [
                  '*'
                ],
                resources: [
                  '*'
                ],
                verbs: [
                  '*'
                ]
              }
            ],
            subjects: [
              {
                group: {
                  name: 'system:unauthenticated'
                },
                kind: 'Group'
              },
              {
                group: {
                  name: 'system:authenticated'
                },
                kind: 'Group'
              }
            ]
          }
        ]
      }
    }
  ]
};

export const suggestedConfiguration: FlowcontrolConfiguration = {
  priorityLevelConfigurations: [
    {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'PriorityLevelConfiguration',
      metadata: {
        annotations: {
          'apf.kubernetes.io/autoupdate-spec': 'true'
        },
        name: 'system'
      },
      spec: {
        limited: {
          lendablePercent: 33,
          limitResponse: {
            queuing: {
              handSize: 6,
              queueLengthLimit: 50,
              queues: 64
            },
            type: 'Queue'
          },
          nominalConcurrencyShares: 30
        },
        type: 'Limited'
      }
    },
    {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'PriorityLevelConfiguration',
      metadata: {
        annotations: {
          'apf.kubernetes.io/autoupdate-spec': 'true'
        },
        name: 'node-high'
      },
      spec: {
        limited: {
          lendablePercent: 25,
          limitResponse: {
            queuing: {
              handSize: 6,
              queueLengthLimit: 50,
              queues: 64
            },
            type: 'Queue'
          },
          nominalConcurrencyShares: 40
        },
        type: 'Limited'
      }
    },
    {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'PriorityLevelConfiguration',
      metadata: {
        annotations: {
          'apf.kubernetes.io/autoupdate-spec': 'true'
        },
        name: 'leader-election'
      },
      spec: {
        limited: {
          lendablePercent: 0,
          limitResponse: {
            queuing: {
              handSize: 4,
              queueLengthLimit: 50,
              queues: 16
            },
            type: 'Queue'
          },
          nominalConcurrencyShares: 10
        },
        type: 'Limited'
      }
    },
    {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'PriorityLevelConfiguration',
      metadata: {
        annotations: {
          'apf.kubernetes.io/autoupdate-spec': 'true'
        },
        name: 'workload-high'
      },
      spec: {
        limited: {
          lendablePercent: 50,
          limitResponse: {
            queuing: {
              handSize: 6,
              queueLengthLimit: 50,
              queues: 128
            },
            type: 'Queue'
          },
          nominalConcurrencyShares: 40
        },
        type: 'Limited'
      }
    },
    {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'PriorityLevelConfiguration',
      metadata: {
        annotations: {
          'apf.kubernetes.io/autoupdate-spec': 'true'
        },
        name: 'workload-low'
      },
      spec: {
        limited: {
          lendablePercent: 90,
          limitResponse: {
            queuing: {
              handSize: 6,
              queueLengthLimit: 50,
              queues: 128
            },
            type: 'Queue'
          },
          nominalConcurrencyShares: 100
        },
        type: 'Limited'
      }
    },
    {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'PriorityLevelConfiguration',
      metadata: {
        annotations: {
          'apf.kubernetes.io/autoupdate-spec': 'true'
        },
        name: 'global-default'
      },
      spec: {
        limited: {
          lendablePercent: 50,
          limitResponse: {
            queuing: {
              handSize: 6,
              queueLengthLimit: 50,
              queues: 128
            },
            type: 'Queue'
          },
          nominalConcurrencyShares: 20
        },
        type: 'Limited'
      }
    }
  ],
  flowSchemas: [
    {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'FlowSchema',
      metadata: {
        annotations: {
          'apf.kubernetes.io/autoupdate-spec': 'true'
        },
        name: 'system-nodes'
      },
      spec: {
        distinguisherMethod: {
          type: 'ByUser'
        },
        matchingPrecedence: 500,
        priorityLevelConfiguration: {
          name: 'system'
        },
        rules: [
          {
            nonResourceRules: [
              {
                nonResourceURLs: [
                  '*'
                ],
                verbs: [
                  '*'
                ]
              }
            ],
            resourceRules: [
              {
                apiGroups: [
                  '*'
                ],
                clusterScope: true,
                namespaces: [
                  '*'
                ],
                resources: [
                  '*'
                ],
                verbs: [
                  '*'
                ]
              }
            ],
            subjects: [
              {
                group: {
                  name: 'system:nodes'
                },
                kind: 'Group'
              }
            ]
          }
        ]
      }
    },
    {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'FlowSchema',
      metadata: {
        annotations: {
          'apf.kubernetes.io/autoupdate-spec': 'true'
        },
        name: 'system-node-high'
      },
      spec: {
        distinguisherMethod: {
          type: 'ByUser'
        },
        matchingPrecedence: 400,
        priorityLevelConfiguration: {
          name: 'node-high'
        },
        rules: [
          {
            resourceRules: [
              {
                apiGroups: [
                  ''
                ],
                clusterScope: true,
                namespaces: [
                  '*'
                ],
                resources: [
                  'nodes',
                  'nodes/status'
                ],
                verbs: [
                  '*'
                ]
              },
              {
                apiGroups: [
                  'coordination.k8s.io'
                ],
                namespaces: [
                  '*'
                ],
                resources: [
                  'leases'
                ],
                verbs: [
                  '*'
                ]
              }
            ],
            subjects: [
              {
                group: {
                  name: 'system:nodes'
                },
                kind: 'Group'
              }
            ]
          }
        ]
      }
    },
    {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'FlowSchema',
      metadata: {
        annotations: {
          'apf.kubernetes.io/autoupdate-spec': 'true'
        },
        name: 'probes'
      },
      spec: {
        matchingPrecedence: 2,
        priorityLevelConfiguration: {
          name: 'exempt'
        },
        rules: [
          {
            nonResourceRules: [
              {
                nonResourceURLs: [
                  '/healthz',
                  '/readyz',
                  '/livez'
                ],
                verbs: [
                  'get'
                ]
              }
            ],
            subjects: [
              {
                group: {
                  name: 'system:unauthenticated'
                },
                kind: 'Group'
              },
              {
                group: {
                  name: 'system:authenticated'
                },
                kind: 'Group'
              }
            ]
          }
        ]
      }
    },
    {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'FlowSchema',
      metadata: {
        annotations: {
          'apf.kubernetes.io/autoupdate-spec': 'true'
        },
        name: 'system-leader-election'
      },
      spec: {
        distinguisherMethod: {
          type: 'ByUser'
        },
        matchingPrecedence: 100,
        priorityLevelConfiguration: {
          name: 'leader-election'
        },
        rules: [
          {
            resourceRules: [
              {
                apiGroups: [
                  'coordination.k8s.io'
                ],
                namespaces: [
                  '*'
                ],
                resources: [
                  'leases'
                ],
                verbs: [
                  'get',
                  'create',
                  'update'
                ]
              }
            ],
            subjects: [
              {
                kind: 'User',
                user: {
                  name: 'system:kube-controller-manager'
                }
              },
              {
                kind: 'User',
                user: {
                  name: 'system:kube-scheduler'
                }
              },
              {
                kind: 'ServiceAccount',
                serviceAccount: {
                  name: '*',
                  namespace: 'kube-system'
                }
              }
            ]
          }
        ]
      }
    },
    {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'FlowSchema',
      metadata: {
        annotations: {
          'apf.kubernetes.io/autoupdate-spec': 'true'
        },
        name: 'kube-controller-manager'
      },
      spec: {
        distinguisherMethod: {
          type: 'ByNamespace'
        },
        matchingPrecedence: 800,
        priorityLevelConfiguration: {
          name: 'workload-high'
        },
        rules: [
          {
            nonResourceRules: [
              {
                nonResourceURLs: [
                  '*'
                ],
                verbs: [
                  '*'
                ]
              }
            ],
            resourceRules: [
              {
                apiGroups: [
                  '*'
                ],
                clusterScope: true,
                namespaces: [
                  '*'
                ],
                resources: [
                  '*'
                ],
                verbs: [
                  '*'
                ]
              }
            ],
            subjects: [
              {
                kind: 'User',
                user: {
                  name: 'system:kube-controller-manager'
                }
              }
            ]
          }
        ]
      }
    },
    {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'FlowSchema',
      metadata: {
        annotations: {
          'apf.kubernetes.io/autoupdate-spec': 'true'
        },
        name: 'kube-scheduler'
      },
      spec: {
        distinguisherMethod: {
          type: 'ByNamespace'
        },
        matchingPrecedence: 800,
        priorityLevelConfiguration: {
          name: 'workload-high'
        },
        rules: [
          {
            nonResourceRules: [
              {
                nonResourceURLs: [
                  '*'
                ],
                verbs: [
                  '*'
                ]
              }
            ],
            resourceRules: [
              {
                apiGroups: [
                  '*'
                ],
                clusterScope: true,
                namespaces: [
                  '*'
                ],
                resources: [
                  '*'
                ],
                verbs: [
                  '*'
                ]
              }
            ],
            subjects: [
              {
                kind: 'User',
                user: {
                  name: 'system:kube-scheduler'
                }
              }
            ]
          }
        ]
      }
    },
    {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'FlowSchema',
      metadata: {
        annotations: {
          'apf.kubernetes.io/autoupdate-spec': 'true'
        },
        name: 'kube-system-service-accounts'
      },
      spec: {
        distinguisherMethod: {
          type: 'ByNamespace'
        },
        matchingPrecedence: 900,
        priorityLevelConfiguration: {
          name: 'workload-high'
        },
        rules: [
          {
            nonResourceRules: [
              {
                nonResourceURLs: [
                  '*'
                ],
                verbs: [
                  '*'
                ]
              }
            ],
            resourceRules: [
              {
                apiGroups: [
                  '*'
                ],
                clusterScope: true,
                namespaces: [
                  '*'
                ],
                resources: [
                  '*'
                ],
                verbs: [
                  '*'
                ]
              }
            ],
            subjects: [
              {
                kind: 'ServiceAccount',
                serviceAccount: {
                  name: '*',
                  namespace: 'kube-system'
                }
              }
            ]
          }
        ]
      }
    },
    {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'FlowSchema',
      metadata: {
        annotations: {
          'apf.kubernetes.io/autoupdate-spec': 'true'
        },
        name: 'service-accounts'
      },
      spec: {
        distinguisherMethod: {
          type: 'ByUser'
        },
        matchingPrecedence: 9000,
        priorityLevelConfiguration: {
          name: 'workload-low'
        },
        rules: [
          {
            nonResourceRules: [
              {
                nonResourceURLs: [
                  '*'
                ],
                verbs: [
                  '*'
                ]
              }
            ],
            resourceRules: [
              {
                apiGroups: [
                  '*'
                ],
                clusterScope: true,
                namespaces: [
                  '*'
                ],
                resources: [
                  '*'
                ],
                verbs: [
                  '*'
                ]
              }
            ],
            subjects: [
              {
                group: {
                  name: 'system:serviceaccounts'
                },
                kind: 'Group'
              }
            ]
          }
        ]
      }
    },
    {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'FlowSchema',
      metadata: {
        annotations: {
          'apf.kubernetes.io/autoupdate-spec': 'true'
        },
        name: 'global-default'
      },
      spec: {
        distinguisherMethod: {
          type: 'ByUser'
        },
        matchingPrecedence: 9900,
        priorityLevelConfiguration: {
          name: 'global-default'
        },
        rules: [
          {
            nonResourceRules: [
              {
                nonResourceURLs: [
                  '*'
                ],
                verbs: [
                  '*'
                ]
              }
            ],
            resourceRules: [
              {
                apiGroups: [
                  '*'
                ],
                clusterScope: true,
                namespaces: [
                  '*'
                ],
                resources: [
                  '*'
                ],
                verbs: [
                  '*'
                ]
              }
            ],
            subjects: [
              {
                group: {
                  name: 'system:unauthenticated'
                },
                kind: 'Group'
              },
              {
                group: {
                  name: 'system:authenticated'
                },
                kind: 'Group'
              }
            ]
          }
        ]
      }
    }
  ]
};
